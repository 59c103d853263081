//! What every contract module builds its cases from: a guest and a guest-session request.
//! Apart from `contract` (whose macro names every contract module), so the modules can use
//! them without importing in a circle.

use crate::{GuestSessionRequest, NewGuest};
use domain::ids::CityId;

pub fn guest(lang: &str) -> NewGuest {
    NewGuest {
        user_type: 0,
        app_lang: lang.into(),
        country: "US".into(),
        postal_code: "20003".into(),
        admin_code: "DC".into(),
        city: "Washington".into(),
        city_show: "Washington, DC".into(),
        city_id: CityId(4140963),
        lat: 38.9,
        lon: -77.02,
        channel: String::new(),
    }
}

pub fn request(device: &str, verifier_hash: &str, now: i64) -> GuestSessionRequest {
    GuestSessionRequest {
        device_id: device.into(),
        guest: guest("en"),
        verifier_hash: verifier_hash.into(),
        now_ms: now,
        expires_at_ms: now + 1_000,
    }
}
