//! The accounts contract (issue 17): identities, signing in and merging, sessions,
//! download and deletion, sign-in flows. Run on every engine by `store_contract_tests!`.

use crate::contract_support::request;
use crate::user_data::{IDENTITY_TABLES, USER_TABLES};
use crate::{
    AccountSessionRequest, LocationUpdate, ProviderIdentity, SessionKey, SignIn, SignInFlow, SignInOutcome,
    SignInRefusal, Store, UserId,
};
use domain::ids::CityId;
use domain::user::AccountType;

const NOW: i64 = 1_760_000_000_000;

fn google(subject: &str) -> ProviderIdentity {
    ProviderIdentity {
        provider: AccountType::Google,
        subject: subject.into(),
        email: format!("{subject}@example.org"),
        name: format!("Reader {subject}"),
        photo: format!("https://photos.example.org/{subject}.jpg"),
    }
}

fn facebook(subject: &str) -> ProviderIdentity {
    ProviderIdentity {
        provider: AccountType::Facebook,
        subject: subject.into(),
        email: String::new(),
        name: format!("FB {subject}"),
        photo: String::new(),
    }
}

async fn guest(store: &dyn Store, device: &str) -> UserId {
    let s = store
        .start_guest_session(&request(device, &format!("h-{device}"), NOW))
        .await
        .unwrap();
    UserId(s.user.id)
}

fn montreal() -> LocationUpdate {
    LocationUpdate {
        lat: 45.5,
        lon: -73.57,
        country: "CA".into(),
        city: "Montréal".into(),
        city_show: "Montréal, QC".into(),
        city_id: CityId(6077243),
        app_lang: "fr".into(),
        admin_code: "QC".into(),
        postal_code: "H2X".into(),
    }
}

async fn sign_in(store: &dyn Store, from: UserId, identity: ProviderIdentity, link: bool) -> SignInOutcome {
    store
        .sign_in(&SignIn {
            from_user: from,
            identity,
            link,
            now_ms: NOW + 1_000,
        })
        .await
        .unwrap()
}

fn account_session(user: UserId, device: &str, hash: &str, label: &str, at: i64) -> AccountSessionRequest {
    AccountSessionRequest {
        user_id: user,
        device_id: device.into(),
        verifier_hash: hash.into(),
        label: label.into(),
        now_ms: at,
        expires_at_ms: at + 86_400_000,
    }
}

pub async fn signing_in_with_a_new_identity_turns_the_guest_into_the_account(store: &dyn Store) {
    let g = guest(store, "dev-new-id").await;
    store.update_location(g, &montreal(), NOW).await.unwrap();
    let SignInOutcome::Upgraded(user) = sign_in(store, g, google("g-1"), false).await else {
        panic!("a new identity upgrades the guest");
    };
    assert_eq!(user.id, g.0, "the guest keeps its id, so everything it had stays");
    assert_eq!(
        user.account_type,
        Some(AccountType::Google.code()),
        "google is 3 (§3.2)"
    );
    assert_eq!(
        (user.name.as_str(), user.email.as_str()),
        ("Reader g-1", "g-1@example.org")
    );
    assert_eq!(user.photo, "https://photos.example.org/g-1.jpg");
    assert_eq!(
        (user.city.as_str(), user.app_lang.as_str(), user.country.as_str()),
        ("Montréal", "fr", "CA"),
        "the guest's city and language are kept"
    );
    let ids = store.identities_of(g).await.unwrap();
    assert_eq!(ids.len(), 1);
    assert_eq!(ids[0].provider, AccountType::Google);
    assert_eq!(
        (ids[0].subject.as_str(), ids[0].email.as_str()),
        ("g-1", "g-1@example.org"),
        "operators may be named by provider and subject (D361)"
    );
    assert_eq!(store.user(g).await.unwrap().unwrap(), user);
}

pub async fn signing_in_on_a_second_device_merges_that_guest_into_the_account(store: &dyn Store) {
    let first = guest(store, "dev-merge-1").await;
    sign_in(store, first, google("g-2"), false).await;
    let second = guest(store, "dev-merge-2").await;
    assert_ne!(first, second);
    store.update_location(second, &montreal(), NOW).await.unwrap();
    let outcome = sign_in(store, second, google("g-2"), false).await;
    let SignInOutcome::Merged { user, guest } = outcome else {
        panic!("a known identity merges the guest: {outcome:?}");
    };
    assert_eq!((user.id, guest), (first.0, second), "the same account on both devices");
    assert_eq!(user.city, "Montréal", "the account takes the guest's latest place");
    assert!(store.user(second).await.unwrap().is_none(), "the merged guest is gone");
    assert_eq!(
        store.identities_of(first).await.unwrap().len(),
        1,
        "no duplicate identity"
    );
}

pub async fn signing_in_again_or_as_another_account_never_merges_accounts(store: &dyn Store) {
    let a = guest(store, "dev-acc-a").await;
    sign_in(store, a, google("g-a"), false).await;
    let again = sign_in(store, a, google("g-a"), false).await;
    assert_eq!(again.user().map(|u| u.id), Some(a.0));
    assert!(matches!(again, SignInOutcome::SignedIn(_)));
    let b = guest(store, "dev-acc-b").await;
    sign_in(store, b, google("g-b"), false).await;
    let switched = sign_in(store, a, google("g-b"), false).await;
    assert!(
        matches!(&switched, SignInOutcome::SignedIn(u) if u.id == b.0),
        "{switched:?}"
    );
    assert!(store.user(a).await.unwrap().is_some(), "account a is untouched");
    assert_eq!(
        sign_in(store, a, google("g-new-person"), false).await,
        SignInOutcome::Refused(SignInRefusal::NotAGuest),
        "a new person signs in from a fresh guest, never from another account"
    );
}

pub async fn linking_adds_a_provider_and_refuses_an_identity_linked_elsewhere(store: &dyn Store) {
    let a = guest(store, "dev-link-a").await;
    sign_in(store, a, google("g-link-a"), false).await;
    let linked = sign_in(store, a, facebook("f-link-a"), true).await;
    assert!(
        matches!(&linked, SignInOutcome::SignedIn(u) if u.id == a.0),
        "{linked:?}"
    );
    let providers: Vec<_> = store
        .identities_of(a)
        .await
        .unwrap()
        .into_iter()
        .map(|i| i.provider)
        .collect();
    assert_eq!(providers, [AccountType::Google, AccountType::Facebook]);
    // Signing in with the linked Facebook identity is the same account.
    let g = guest(store, "dev-link-fb").await;
    let via_fb = sign_in(store, g, facebook("f-link-a"), false).await;
    assert_eq!(via_fb.user().map(|u| u.id), Some(a.0));

    let b = guest(store, "dev-link-b").await;
    sign_in(store, b, google("g-link-b"), false).await;
    assert_eq!(
        sign_in(store, b, google("g-link-a"), true).await,
        SignInOutcome::Refused(SignInRefusal::LinkedElsewhere)
    );
    let plain_guest = guest(store, "dev-link-guest").await;
    assert_eq!(
        sign_in(store, plain_guest, facebook("f-new"), true).await,
        SignInOutcome::Refused(SignInRefusal::LinkNeedsAccount)
    );
    assert_eq!(
        sign_in(store, UserId(999_999), google("g-nobody"), false).await,
        SignInOutcome::Refused(SignInRefusal::UserGone)
    );
    assert!(store.identities_of(UserId(999_999)).await.unwrap().is_empty());
}

pub async fn account_sessions_are_listed_and_revoked_one_or_all_others(store: &dyn Store) {
    let a = guest(store, "dev-sess").await;
    sign_in(store, a, google("g-sess"), false).await;
    let mut ids = Vec::new();
    for (i, label) in ["Chrome on Linux", "Firefox on Windows", "Safari on iOS"]
        .iter()
        .enumerate()
    {
        let at = NOW + 10_000 * (i as i64 + 1);
        let req = account_session(a, &format!("dev-sess-{i}"), &format!("hs-{i}"), label, at);
        ids.push(store.start_account_session(&req).await.unwrap());
    }
    let listed = store.sessions_of(a, NOW + 50_000).await.unwrap();
    let labels: Vec<_> = listed.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(
        labels,
        ["Safari on iOS", "Firefox on Windows", "Chrome on Linux"],
        "newest first"
    );
    let key = SessionKey {
        id: ids[0],
        verifier_hash: "hs-0".into(),
    };
    let found = store.session_user(&key).await.unwrap().expect("account session");
    assert_eq!((found.user.id, found.device_id.as_str()), (a.0, "dev-sess-0"));

    let other = guest(store, "dev-sess-other").await;
    assert!(!store.end_session_of(other, ids[1]).await.unwrap(), "not theirs");
    assert!(store.end_session_of(a, ids[1]).await.unwrap());
    assert!(!store.end_session_of(a, ids[1]).await.unwrap(), "already ended");
    let ended = store.end_other_sessions(a, ids[0]).await.unwrap();
    assert_eq!(listed.len(), 3, "the guest's own session from init has expired");
    assert_eq!(ended, 2, "the other live one and the expired one from init");
    let left: Vec<_> = store
        .sessions_of(a, NOW + 50_000)
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(left, [ids[0]]);
    assert!(store.session_user(&key).await.unwrap().is_some());
    // Expired sessions are not listed.
    assert!(store.sessions_of(a, NOW + 10 * 86_400_000).await.unwrap().is_empty());
}

pub async fn deleting_an_account_removes_everything_about_it(store: &dyn Store) {
    let a = guest(store, "dev-del").await;
    sign_in(store, a, google("g-del"), false).await;
    sign_in(store, a, facebook("f-del"), true).await;
    let sid = store
        .start_account_session(&account_session(a, "dev-del-2", "hd", "Chrome on Linux", NOW))
        .await
        .unwrap();
    let keep = guest(store, "dev-keep").await;
    assert!(store.delete_user(a).await.unwrap());
    assert!(store.user(a).await.unwrap().is_none());
    assert!(store.identities_of(a).await.unwrap().is_empty());
    assert!(store.sessions_of(a, NOW).await.unwrap().is_empty());
    assert!(store.export_user(a).await.unwrap().is_none());
    let key = SessionKey {
        id: sid,
        verifier_hash: "hd".into(),
    };
    assert!(store.session_user(&key).await.unwrap().is_none());
    assert!(!store.delete_user(a).await.unwrap(), "already gone");
    assert!(store.user(keep).await.unwrap().is_some(), "others are untouched");
    // The identity is free again: signing in with it makes a new account.
    let g = guest(store, "dev-del-again").await;
    assert!(matches!(
        sign_in(store, g, google("g-del"), false).await,
        SignInOutcome::Upgraded(_)
    ));
}

pub async fn download_holds_the_user_identities_sessions_and_devices(store: &dyn Store) {
    let a = guest(store, "dev-export").await;
    sign_in(store, a, google("g-export"), false).await;
    store
        .start_account_session(&account_session(a, "dev-export-2", "he", "Firefox on Linux", NOW))
        .await
        .unwrap();
    let export = store.export_user(a).await.unwrap().expect("export");
    assert_eq!(export.user.id, a.0);
    assert_eq!(export.user.email, "g-export@example.org");
    assert_eq!(export.identities.len(), 1);
    assert!(export.sessions.iter().any(|s| s.label == "Firefox on Linux"));
    let mut devices = export.devices.clone();
    devices.sort();
    assert_eq!(devices, ["dev-export", "dev-export-2"]);
    let names: Vec<_> = export.tables.iter().map(|(n, _)| n.as_str()).collect();
    let registered: Vec<_> = USER_TABLES.iter().map(|t| t.table).collect();
    assert_eq!(names, registered, "every registered table is in the download");
}

pub async fn every_user_table_is_registered(store: &dyn Store) {
    let mut in_schema = store.user_id_tables().await.unwrap();
    in_schema.sort();
    let mut known: Vec<String> = USER_TABLES
        .iter()
        .map(|t| t.table.to_string())
        .chain(IDENTITY_TABLES.iter().map(|t| t.to_string()))
        .collect();
    known.sort();
    assert_eq!(
        in_schema, known,
        "a table with a user_id column must be in store::user_data (merge, download, delete)"
    );
}

fn flow(state_hash: &str, expires_at_ms: i64) -> SignInFlow {
    SignInFlow {
        state_hash: state_hash.into(),
        provider: AccountType::Google,
        browser_hash: "browser".into(),
        session_id: 7,
        pkce_verifier: "v".repeat(43),
        nonce: "n".into(),
        return_to: "/local?x=1".into(),
        popup: true,
        link: false,
        created_at_ms: NOW,
        expires_at_ms,
    }
}

pub async fn sign_in_flows_are_taken_once_and_expire(store: &dyn Store) {
    store.put_sign_in_flow(&flow("s1", NOW + 600_000)).await.unwrap();
    store.put_sign_in_flow(&flow("s2", NOW + 1_000)).await.unwrap();
    let taken = store.take_sign_in_flow("s1", NOW).await.unwrap();
    assert_eq!(taken, Some(flow("s1", NOW + 600_000)));
    assert_eq!(store.take_sign_in_flow("s1", NOW).await.unwrap(), None, "used once");
    assert_eq!(
        store.take_sign_in_flow("s2", NOW + 2_000).await.unwrap(),
        None,
        "expired"
    );
    assert_eq!(store.take_sign_in_flow("nope", NOW).await.unwrap(), None);
}

/// D352: the hourly purge takes guests not seen since the cut-off with everything they
/// had, and expired sessions; recent guests, accounts and live sessions stay.
pub async fn d352_purge_takes_idle_guests_with_their_things_and_expired_sessions_only(store: &dyn Store) {
    const DAY: i64 = 86_400_000;
    let old = NOW - 200 * DAY;
    let idle = store
        .start_guest_session(&request("dev-idle", "h-idle", old))
        .await
        .unwrap();
    let idle_user = UserId(idle.user.id);
    store.save_news(idle_user, domain::ids::NewsId(7), old).await.unwrap();
    // An account last seen as long ago stays: only guests are purged.
    let account = store
        .start_guest_session(&request("dev-old-account", "h-old-account", old))
        .await
        .unwrap();
    let account_user = UserId(account.user.id);
    let SignInOutcome::Upgraded(_) = sign_in(store, account_user, google("purge-1"), false).await else {
        panic!("a new identity upgrades the guest");
    };
    store.touch_user(account_user, old).await.unwrap();
    let mut live = request("dev-recent", "h-recent", NOW);
    live.expires_at_ms = NOW + DAY;
    let recent = store.start_guest_session(&live).await.unwrap();
    let recent_user = UserId(recent.user.id);

    let purged = store.purge_idle(Some(NOW - 180 * DAY), NOW).await.unwrap();
    assert_eq!(purged.guests, 1, "only the idle guest");
    assert_eq!(
        purged.sessions, 1,
        "the old account's expired session; the idle guest's went with it"
    );
    assert!(store.user(idle_user).await.unwrap().is_none());
    assert!(
        store
            .session_user(&SessionKey {
                id: idle.session_id,
                verifier_hash: "h-idle".into()
            })
            .await
            .unwrap()
            .is_none()
    );
    let export = store.export_user(idle_user).await.unwrap();
    assert!(export.is_none(), "nothing of the idle guest is left");
    assert!(
        store.user(account_user).await.unwrap().is_some(),
        "accounts are never purged"
    );
    assert!(store.user(recent_user).await.unwrap().is_some());
    let key = SessionKey {
        id: recent.session_id,
        verifier_hash: "h-recent".into(),
    };
    assert!(
        store.session_user(&key).await.unwrap().is_some(),
        "a live session stays"
    );

    // Without a cut-off only expired sessions go; the recent guest's ends once expired.
    let later = store.purge_idle(None, NOW + 2 * DAY).await.unwrap();
    assert_eq!(later, crate::Purged { guests: 0, sessions: 1 });
    assert!(store.user(recent_user).await.unwrap().is_some());
}
