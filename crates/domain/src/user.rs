//! SPEC §3.1 user (server form), §3.2 account types, timestamps in milliseconds.

use crate::ids::CityId;
use serde::{Deserialize, Serialize};

/// §3.2 account type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AccountType {
    Guest,
    Email,
    Facebook,
    Google,
    Apple,
    Robot,
}

impl AccountType {
    pub fn code(self) -> i32 {
        match self {
            AccountType::Guest => 0,
            AccountType::Email => 1,
            AccountType::Facebook => 2,
            AccountType::Google => 3,
            AccountType::Apple => 4,
            AccountType::Robot => 99,
        }
    }

    pub fn from_code(code: i32) -> Option<AccountType> {
        Some(match code {
            0 => AccountType::Guest,
            1 => AccountType::Email,
            2 => AccountType::Facebook,
            3 => AccountType::Google,
            4 => AccountType::Apple,
            99 => AccountType::Robot,
            _ => return None,
        })
    }

    /// Signed-in means any account that is not a guest (§6.1, §6.2).
    pub fn is_signed_in(self) -> bool {
        self != AccountType::Guest
    }
}

/// §3.1: timestamp values under 1e12 are seconds and are converted to milliseconds.
pub fn timestamp_millis(value: i64) -> i64 {
    if value.unsigned_abs() < 1_000_000_000_000 {
        value.saturating_mul(1000)
    } else {
        value
    }
}

/// §3.1 user in the server's form: the API's field names and types.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = User)]
pub struct UserServer {
    pub id: i64,
    pub name: String,
    pub photo: String,
    pub email: String,
    /// 1 when the call created this user.
    pub is_new_user: i32,
    /// §3.2: guest 0, email 1, facebook 2, google 3, apple 4, robot 99. Dropped from the
    /// location-update reply (§7), hence optional (absent, never null).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub account_type: Option<i32>,
    /// Milliseconds since 1970.
    pub join_time: i64,
    pub last_time: i64,
    pub app_lang: String,
    pub postal_code: String,
    pub country: String,
    pub admin_code: String,
    pub city: String,
    pub city_show: String,
    #[schema(value_type = i64)]
    pub city_id: CityId,
    pub lat: f64,
    pub lon: f64,
    /// 1 when the first visit came from an ad channel.
    pub user_type: i32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_3_2_account_type_codes() {
        let all = [
            (AccountType::Guest, 0),
            (AccountType::Email, 1),
            (AccountType::Facebook, 2),
            (AccountType::Google, 3),
            (AccountType::Apple, 4),
            (AccountType::Robot, 99),
        ];
        for (t, code) in all {
            assert_eq!(t.code(), code);
            assert_eq!(AccountType::from_code(code), Some(t));
        }
        assert_eq!(AccountType::from_code(5), None);
        assert!(!AccountType::Guest.is_signed_in() && AccountType::Google.is_signed_in());
    }

    #[test]
    fn spec_3_1_timestamps_under_1e12_are_seconds() {
        assert_eq!(timestamp_millis(1_700_000_000), 1_700_000_000_000);
        assert_eq!(timestamp_millis(1_700_000_000_000), 1_700_000_000_000);
        assert_eq!(timestamp_millis(999_999_999_999), 999_999_999_999_000);
        assert_eq!(timestamp_millis(0), 0);
        assert_eq!(timestamp_millis(i64::MIN), i64::MIN, "no overflow at the edge");
    }
}
