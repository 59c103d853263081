//! Nearest city to a point. Cities are kept sorted by latitude; the walk goes outwards
//! from the query's latitude on both sides and stops once the latitude gap alone is
//! larger than the best distance found, since a great-circle distance is never shorter
//! than its north-south part. Exact, and it touches only a thin band of cities.

use crate::{City, all};
use domain::geo::Country;
use std::sync::LazyLock;

/// Mean Earth radius (IUGG), km.
const EARTH_RADIUS_KM: f64 = 6371.0088;

/// What a local reader calls nearby: a local feed's "nearby" widening (D111) and how
/// far a publisher's stories count as its own area (D172).
pub const NEARBY_KM: f64 = 80.0;

/// Great-circle (haversine) distance in km.
pub fn distance_km(lat1: f64, lon1: f64, lat2: f64, lon2: f64) -> f64 {
    let (p1, p2) = (lat1.to_radians(), lat2.to_radians());
    let (dp, dl) = (p2 - p1, (lon2 - lon1).to_radians());
    let a = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_KM * a.sqrt().min(1.0).asin()
}

/// Indexes into `all()`, sorted by latitude.
static BY_LAT: LazyLock<Vec<u32>> = LazyLock::new(|| {
    let cities = all();
    let mut order: Vec<u32> = (0..cities.len() as u32).collect();
    order.sort_by(|a, b| cities[*a as usize].lat.total_cmp(&cities[*b as usize].lat));
    order
});

pub(crate) fn nearest(lat: f64, lon: f64, country: Option<Country>) -> Option<&'static City> {
    if !lat.is_finite() || !lon.is_finite() {
        return None;
    }
    let cities = all();
    let order = &*BY_LAT;
    let lat_of = |i: usize| cities[order[i] as usize].lat;
    let gap_km = |other: f64| (other - lat).abs().to_radians() * EARTH_RADIUS_KM;
    let split = order.partition_point(|c| cities[*c as usize].lat < lat);
    // `below` counts down from split (exclusive), `above` up from split.
    let (mut below, mut above) = (split, split);
    let mut best: Option<(f64, &'static City)> = None;
    loop {
        let next_below = below.checked_sub(1).map(|i| (i, gap_km(lat_of(i))));
        let next_above = (above < order.len()).then(|| (above, gap_km(lat_of(above))));
        let (i, gap, from_below) = match (next_below, next_above) {
            (Some((i, g)), Some((_, h))) if g <= h => (i, g, true),
            (_, Some((j, h))) => (j, h, false),
            (Some((i, g)), None) => (i, g, true),
            (None, None) => break,
        };
        if best.is_some_and(|(d, _)| gap > d) {
            break;
        }
        if from_below {
            below = i;
        } else {
            above = i + 1;
        }
        let city = &cities[order[i] as usize];
        if country.is_some_and(|c| city.iso != c) {
            continue;
        }
        let d = distance_km(lat, lon, city.lat, city.lon);
        if best.is_none_or(|(b, _)| d < b) {
            best = Some((d, city));
        }
    }
    best.map(|(_, c)| c)
}
