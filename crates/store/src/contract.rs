//! The contract every engine must meet. Each engine's tests call
//! [`store_contract_tests!`](crate::store_contract_tests) with a constructor for a fresh,
//! migrated, empty store; every function here becomes a named test for that engine.

use crate::{GuestSession, LocationUpdate, SessionKey, Store, UserId};
use domain::ids::CityId;

pub use crate::contract_support::{guest, request};

fn key(session: &GuestSession, verifier_hash: &str) -> SessionKey {
    SessionKey {
        id: session.session_id,
        verifier_hash: verifier_hash.into(),
    }
}

pub async fn health_answers(store: &dyn Store) {
    store.health().await.expect("health");
}

pub async fn new_device_gets_a_new_guest_user(store: &dyn Store) {
    let s = store
        .start_guest_session(&request("dev-a", "h1", 1_700_000_000_000))
        .await
        .unwrap();
    assert!(s.is_new_user);
    assert_eq!(s.user.account_type, Some(0), "guests are account type 0 (§3.2)");
    assert_eq!(s.user.join_time, 1_700_000_000_000);
    assert_eq!(s.user.last_time, 1_700_000_000_000);
    assert_eq!((s.user.city.as_str(), s.user.admin_code.as_str()), ("Washington", "DC"));
    assert_eq!(s.user.city_show, "Washington, DC");
    assert_eq!(s.user.city_id, CityId(4140963));
    assert!(s.user.id > 0);
}

/// What init answers is what the store holds: the answer is built without reading the
/// new row back (no RETURNING on SQLite), so every column must match the stored one.
pub async fn a_guest_reads_back_exactly_as_it_was_answered(store: &dyn Store) {
    // `is_new_user` belongs to the init answer only; every other column is stored.
    let as_stored = |u: &crate::UserServer| crate::UserServer {
        is_new_user: 0,
        ..u.clone()
    };
    let mut req = request("dev-readback", "h-rb", 1_700_000_000_123);
    req.guest.user_type = 1;
    req.guest.app_lang = "fr".into();
    req.guest.country = "CA".into();
    let new = store.start_guest_session(&req).await.unwrap();
    let stored = store.user(UserId(new.user.id)).await.unwrap().expect("stored");
    assert_eq!(as_stored(&new.user), stored);
    assert_eq!(new.user.is_new_user, 1);
}

/// D350: a device id is a public label. A second session request naming a known device
/// (an attacker who read it from a header, a cookie or the usage export) gets a guest of
/// its own, never the device's guest, whose session stays the only way to it.
pub async fn a_known_device_id_without_its_token_gets_a_new_guest(store: &dyn Store) {
    let owner = store
        .start_guest_session(&request("dev-b", "h1", 1_000_000_000_000))
        .await
        .unwrap();
    let other = store
        .start_guest_session(&request("dev-b", "h2", 1_000_000_000_500))
        .await
        .unwrap();
    assert_ne!(
        owner.user.id, other.user.id,
        "the device's guest is not handed out again"
    );
    assert!(other.is_new_user);
    assert_eq!(other.user.join_time, 1_000_000_000_500);
    let found = store.session_user(&key(&other, "h2")).await.unwrap().expect("session");
    assert_eq!(found.user.id, other.user.id);
    // The owner's session still opens the owner's guest, and only it.
    let found = store.session_user(&key(&owner, "h1")).await.unwrap().expect("session");
    assert_eq!(found.user.id, owner.user.id);
    assert_ne!(owner.session_id, other.session_id);
}

pub async fn session_lookup_returns_user_device_and_expiry(store: &dyn Store) {
    let s = store
        .start_guest_session(&request("dev-d", "hash-d", 1_000_000_000_000))
        .await
        .unwrap();
    let found = store.session_user(&key(&s, "hash-d")).await.unwrap().expect("session");
    assert_eq!(found.user.id, s.user.id);
    assert_eq!(found.device_id, "dev-d");
    assert_eq!(found.expires_at_ms, 1_000_000_001_000);
    assert!(
        store.session_user(&key(&s, "wrong-verifier")).await.unwrap().is_none(),
        "the verifier must match"
    );
    let unknown = SessionKey {
        id: s.session_id + 1_000,
        verifier_hash: "hash-d".into(),
    };
    assert!(store.session_user(&unknown).await.unwrap().is_none());
}

pub async fn ending_a_session_removes_only_that_session(store: &dyn Store) {
    let e1 = store
        .start_guest_session(&request("dev-e", "e1", 1_000_000_000_000))
        .await
        .unwrap();
    let e2 = store
        .start_guest_session(&request("dev-e", "e2", 1_000_000_000_000))
        .await
        .unwrap();
    assert!(
        !store.end_session(&key(&e1, "not-e1")).await.unwrap(),
        "a wrong verifier ends nothing"
    );
    assert!(store.end_session(&key(&e1, "e1")).await.unwrap());
    assert!(
        !store.end_session(&key(&e1, "e1")).await.unwrap(),
        "second end is a no-op"
    );
    assert!(store.session_user(&key(&e1, "e1")).await.unwrap().is_none());
    assert!(store.session_user(&key(&e2, "e2")).await.unwrap().is_some());
}

pub async fn touch_user_sets_last_time(store: &dyn Store) {
    let s = store
        .start_guest_session(&request("dev-f", "f1", 1_000_000_000_000))
        .await
        .unwrap();
    store.touch_user(UserId(s.user.id), 1_000_000_009_999).await.unwrap();
    let u = store.user(UserId(s.user.id)).await.unwrap().unwrap();
    assert_eq!(u.last_time, 1_000_000_009_999);
    assert_eq!(u.join_time, 1_000_000_000_000);
}

pub async fn update_location_sets_every_field(store: &dyn Store) {
    let s = store
        .start_guest_session(&request("dev-g", "g1", 1_000_000_000_000))
        .await
        .unwrap();
    let update = LocationUpdate {
        lat: 45.50884,
        lon: -73.58781,
        country: "CA".into(),
        city: "Montréal".into(),
        city_show: "Montréal, QC".into(),
        city_id: CityId(6077243),
        app_lang: "fr".into(),
        admin_code: "QC".into(),
        postal_code: "H2X".into(),
    };
    let u = store
        .update_location(UserId(s.user.id), &update, 1_000_000_000_100)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (u.city.as_str(), u.city_show.as_str(), u.country.as_str()),
        ("Montréal", "Montréal, QC", "CA")
    );
    assert_eq!(
        (u.admin_code.as_str(), u.postal_code.as_str(), u.app_lang.as_str()),
        ("QC", "H2X", "fr")
    );
    assert_eq!(u.city_id, CityId(6077243));
    assert!((u.lat - 45.50884).abs() < 1e-9 && (u.lon + 73.58781).abs() < 1e-9);
    assert_eq!(u.last_time, 1_000_000_000_100);
    let missing = store.update_location(UserId(i64::MAX), &update, 1).await.unwrap();
    assert!(missing.is_none());
}

pub async fn unknown_user_is_none(store: &dyn Store) {
    assert!(store.user(UserId(987_654_321)).await.unwrap().is_none());
}

pub async fn settings_round_trip_and_overwrite(store: &dyn Store) {
    assert_eq!(store.setting("k").await.unwrap(), None);
    store.put_setting("k", "v1", 1).await.unwrap();
    store.put_setting("k", "v2 ünïcode", 2).await.unwrap();
    assert_eq!(store.setting("k").await.unwrap().as_deref(), Some("v2 ünïcode"));
}

pub async fn text_is_stored_verbatim(store: &dyn Store) {
    let mut req = request("dev-'; DROP TABLE users; --", "h'x", 1_000_000_000_000);
    req.guest.city = "Saint-Jean-sur-Richelieu \"Ω\" 🙂".into();
    let s = store.start_guest_session(&req).await.unwrap();
    assert_eq!(s.user.city, "Saint-Jean-sur-Richelieu \"Ω\" 🙂");
    let found = store.session_user(&key(&s, "h'x")).await.unwrap().unwrap();
    assert_eq!(found.device_id, "dev-'; DROP TABLE users; --");
}

pub async fn many_devices_each_get_their_own_guest(store: &dyn Store) {
    let mut ids = std::collections::HashSet::new();
    for i in 0..64 {
        let req = request(&format!("dev-many-{i}"), &format!("tok-many-{i}"), 1_000_000_000_000);
        ids.insert(store.start_guest_session(&req).await.unwrap().user.id);
    }
    assert_eq!(ids.len(), 64);
}

/// Expands into one `#[tokio::test]` per contract function for an engine.
/// `$make` is an async expression giving `Option<impl Store>` (`None` skips the test,
/// for PostgreSQL when `TEST_DATABASE_URL` is not set).
#[macro_export]
macro_rules! store_contract_tests {
    ($make:expr) => {
        $crate::store_contract_tests!(@each $make;
            health_answers,
            new_device_gets_a_new_guest_user,
            a_guest_reads_back_exactly_as_it_was_answered,
            a_known_device_id_without_its_token_gets_a_new_guest,
            session_lookup_returns_user_device_and_expiry,
            ending_a_session_removes_only_that_session,
            touch_user_sets_last_time,
            update_location_sets_every_field,
            unknown_user_is_none,
            settings_round_trip_and_overwrite,
            text_is_stored_verbatim,
            many_devices_each_get_their_own_guest,
        );
        $crate::store_contract_tests!(@accounts $make;
            signing_in_with_a_new_identity_turns_the_guest_into_the_account,
            signing_in_on_a_second_device_merges_that_guest_into_the_account,
            signing_in_again_or_as_another_account_never_merges_accounts,
            linking_adds_a_provider_and_refuses_an_identity_linked_elsewhere,
            account_sessions_are_listed_and_revoked_one_or_all_others,
            deleting_an_account_removes_everything_about_it,
            download_holds_the_user_identities_sessions_and_devices,
            every_user_table_is_registered,
            sign_in_flows_are_taken_once_and_expire,
            d352_purge_takes_idle_guests_with_their_things_and_expired_sessions_only,
        );
        $crate::store_contract_tests!(@things $make;
            saving_twice_is_one_save_and_unsaving_is_idempotent,
            saved_stories_page_newest_first_without_gaps_or_repeats,
            one_reaction_per_story_changing_it_replaces_it_and_counts_are_per_reaction,
            history_keeps_a_story_once_per_day_and_removes_one_or_all,
            follows_and_blocks_are_idempotent_and_listed_with_their_times,
            topics_and_mutes_are_idempotent_trimmed_and_listed,
            limits_refuse_past_the_maximum,
            home_channel_order_is_replaced_and_read_back,
            a_guests_things_merge_into_the_account_on_sign_in_without_duplicates,
            deleting_an_account_removes_its_things_and_download_lists_them,
            d353_throwaway_guests_reactions_do_not_count_for_others,
        );
        $crate::store_contract_tests!(@push $make;
            d356_an_endpoint_is_one_subscription_and_another_readers_is_not_moved,
            d310_a_reader_has_at_most_max_subscriptions,
            d310_gone_endpoints_are_removed_and_failures_counted,
            d310_settings_start_at_the_defaults_and_are_replaced_whole,
            d310_push_targets_are_a_citys_subscriptions_with_their_readers_settings,
            d312_a_story_is_claimed_once_per_reader_and_counted_since_a_time,
            d312_what_was_sent_pages_newest_first_with_the_item_pushed_without_gaps_or_repeats,
            d310_a_guests_subscription_and_settings_follow_them_into_the_account,
        );
        $crate::store_contract_tests!(@reports $make;
            report_events_are_appended_and_read_back_oldest_first,
            usage_sums_readers_page_views_functions_stories_searches_and_channels,
            retention_deletes_only_events_received_before_the_cut,
            d366_stored_bytes_are_the_sum_of_the_calls_counted_bytes,
        );
        $crate::store_contract_tests!(@content $make;
            import_adds_publishers_and_feeds_and_skips_known_urls,
            same_identity_is_stored_once_and_updated_in_place,
            same_canonical_url_from_one_publisher_is_one_item,
            news_item_keeps_every_field,
            place_lists_page_newest_first_without_gaps_or_repeats,
            a_list_over_several_places_merges_them_newest_first,
            lists_filter_by_language_country_category_and_publisher,
            clusters_count_items_and_publishers_and_rank_top,
            top_ranks_the_whole_window_filters_by_lead_and_pages,
            search_is_accent_and_case_insensitive_with_prefix_and_stemming,
            d411_a_common_whole_word_is_not_read_as_a_prefix,
            search_finds_every_item_of_a_batch_and_the_last_text_of_a_repeat,
            grouped_writes_are_stored_once_committed,
            d428_a_batch_of_new_items_keeps_order_stories_and_repeats,
            search_ranks_title_matches_first_newest_first_up_to_the_cap,
            d426_search_ranks_the_readers_place_first,
            d430_filtered_search_over_many_matches_is_exact,
            content_generation_counts_writes_readers_see,
            publisher_search_and_detail,
            due_feeds_are_leased_once_and_released_by_a_fetch,
            removing_a_feed_removes_its_items_and_an_orphan_publisher,
            d414_retention_deletes_stories_before_the_cut_but_not_saved_ones,
            d336_a_paused_feed_is_never_claimed_and_due_at_once_when_resumed,
            d397_feed_health_counts_feeds_the_oldest_due_and_the_failing,
            known_hashes_report_stored_versions,
            specials_round_trip,
        );
    };
    (@accounts $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                if let Some(store) = $make.await {
                    $crate::contract_accounts::$name(&store).await;
                }
            }
        )*
    };
    (@things $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                if let Some(store) = $make.await {
                    $crate::contract_things::$name(&store).await;
                }
            }
        )*
    };
    (@push $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                if let Some(store) = $make.await {
                    $crate::contract_push::$name(&store).await;
                }
            }
        )*
    };
    (@reports $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                if let Some(store) = $make.await {
                    $crate::contract_reports::$name(&store).await;
                }
            }
        )*
    };
    (@content $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                if let Some(store) = $make.await {
                    $crate::contract_content::$name(&store).await;
                }
            }
        )*
    };
    (@each $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                if let Some(store) = $make.await {
                    $crate::contract::$name(&store).await;
                }
            }
        )*
    };
}
