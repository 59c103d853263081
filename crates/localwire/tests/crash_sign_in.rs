//! Crash safety of sign-in (issue 30): `kill -9` while guests sign in to an account that
//! already exists, so their things merge into it, 12 times over one SQLite data directory.
//! After each restart no account is half-merged: every guest is either whole (its session
//! works and holds all its saves) or gone into the account (its session ends and the
//! account holds all its saves), and the account holds exactly what the merged guests
//! brought. A sign-in that was answered is always merged.
//!
//! Native sign-in (`/user/third/login`) with ID tokens from the loopback Google
//! (`fake-providers`), as a phone app signs in.

mod support;

use fake_providers::{FakeProviders, FakeUser, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::{Arc, Barrier};
use std::time::Duration;
use support::{Server, code_zero, latest_ids, rand_below, saved_ids, temp_dir};

const ROUNDS: usize = 12;
const GUESTS: usize = 4;
const SAVES: usize = 3;

fn account(round: usize) -> FakeUser {
    FakeUser {
        sub: format!("crash-merge-{round}"),
        email: Some(format!("merge{round}@example.com")),
        email_verified: true,
        name: format!("Merge {round}"),
        picture: String::new(),
    }
}

fn sign_in(addr: &str, device: &str, token: &str, id_token: &str) -> (u16, Value) {
    support::call(
        addr,
        device,
        "/user/third/login",
        Some(token),
        json!({"type": 3, "id_token": id_token}),
    )
}

struct Guest {
    device: String,
    token: String,
    saves: BTreeSet<i64>,
    answered: bool,
}

fn start(dir: &Path, fakes_issuer: &str) -> Server {
    Server::start(
        dir,
        &[
            "--demo",
            "--calls-per-second",
            "0",
            "--public-url",
            "http://127.0.0.1:9",
            "--google-client-id",
            GOOGLE_CLIENT_ID,
            "--google-client-secret",
            GOOGLE_CLIENT_SECRET,
            "--google-issuer",
            fakes_issuer,
        ],
    )
}

/// What round `round` left after the crash: each guest whole or wholly merged, the account
/// holding exactly the merged guests' saves.
fn check(server: &Server, fakes: &FakeProviders, round: usize, guests: &[Guest]) -> (usize, usize) {
    let mut merged_saves = BTreeSet::new();
    let mut merged = 0;
    for g in guests {
        let (status, body) = server.call(
            &g.device,
            "/user/news/collectList",
            Some(&g.token),
            json!({"size": 100}),
        );
        match status {
            200 => {
                assert!(
                    !g.answered,
                    "round {round}: {} was answered as signed in, yet is a guest still",
                    g.device
                );
                let saved: BTreeSet<i64> = saved_ids(server, &g.device, &g.token).into_iter().collect();
                assert_eq!(
                    saved, g.saves,
                    "round {round}: a guest that did not merge keeps all its saves"
                );
            }
            401 => {
                merged += 1;
                merged_saves.extend(g.saves.iter().copied());
            }
            other => panic!("round {round}: {other} {body}"),
        }
    }
    // Sign in to the account again from an empty guest: what it holds now.
    let device = format!("crash-merge-check-{round}-000000000000");
    let guest = server.guest(&device);
    let id_token = fakes.mint_google_id_token(&account(round), None);
    let (status, body) = sign_in(&server.addr, &device, &guest, &id_token);
    assert!(code_zero(status, &body), "{body}");
    let token = body["data"]["token"].as_str().unwrap();
    let held: BTreeSet<i64> = saved_ids(server, &device, token).into_iter().collect();
    assert_eq!(
        held, merged_saves,
        "round {round}: the account holds exactly the merged guests' saves"
    );
    (merged, guests.len() - merged)
}

/// How long `GUESTS` sign-ins at once take on this machine (one round with no kill): the
/// kills land at random within it.
fn time_sign_ins(server: &Server, fakes: &FakeProviders, stories: &[i64]) -> Duration {
    let user = account(ROUNDS);
    let guests: Vec<(String, String)> = (0..GUESTS)
        .map(|g| {
            let device = format!("crash-merge-timing-{g}-00000000000000");
            let token = server.guest(&device);
            let (status, _, body) = support::save(server, &device, &token, stories[g]);
            assert!(code_zero(status, &body), "{body}");
            (device, token)
        })
        .collect();
    let started = std::time::Instant::now();
    let calls: Vec<_> = guests
        .into_iter()
        .map(|(device, token)| {
            let (addr, id_token) = (server.addr.clone(), fakes.mint_google_id_token(&user, None));
            std::thread::spawn(move || {
                let (status, body) = sign_in(&addr, &device, &token, &id_token);
                code_zero(status, &body)
            })
        })
        .collect();
    for call in calls {
        assert!(call.join().unwrap(), "a sign-in with no kill");
    }
    started.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_during_sign_in_merges_leaves_no_account_half_merged() {
    let fakes = FakeProviders::start().await;
    let issuer = fakes.google_issuer();
    let fakes = Arc::new(fakes);
    tokio::task::spawn_blocking(move || {
        let dir = temp_dir("crash-sign-in");
        let mut server = start(&dir, &issuer);
        let stories = latest_ids(&server, GUESTS * SAVES);
        assert_eq!(stories.len(), GUESTS * SAVES);
        let window = time_sign_ins(&server, &fakes, &stories);
        let (mut merged, mut whole, mut answered) = (0, 0, 0);
        let mut last: Option<(usize, Vec<Guest>)> = None;
        for round in 0..ROUNDS {
            if let Some((r, guests)) = last.take() {
                let (m, w) = check(&server, &fakes, r, &guests);
                merged += m;
                whole += w;
            }
            // The account exists before the guests sign in, so theirs are merges.
            let owner = format!("crash-merge-owner-{round}-0000000000");
            let owner_token = server.guest(&owner);
            let (status, body) = sign_in(
                &server.addr,
                &owner,
                &owner_token,
                &fakes.mint_google_id_token(&account(round), None),
            );
            assert!(code_zero(status, &body), "{body}");
            let mut guests: Vec<Guest> = (0..GUESTS)
                .map(|g| {
                    let device = format!("crash-merge-{round}-{g}-00000000000000");
                    let token = server.guest(&device);
                    let saves: BTreeSet<i64> = stories[g * SAVES..(g + 1) * SAVES].iter().copied().collect();
                    for id in &saves {
                        let (status, _, body) = support::save(&server, &device, &token, *id);
                        assert!(code_zero(status, &body), "{body}");
                    }
                    Guest {
                        device,
                        token,
                        saves,
                        answered: false,
                    }
                })
                .collect();
            // All guests sign in at once; the kill lands somewhere in the time that takes.
            let barrier = Arc::new(Barrier::new(GUESTS + 1));
            let calls: Vec<_> = guests
                .iter()
                .map(|g| {
                    let (addr, device, token, barrier) =
                        (server.addr.clone(), g.device.clone(), g.token.clone(), barrier.clone());
                    let id_token = fakes.mint_google_id_token(&account(round), None);
                    std::thread::spawn(move || {
                        barrier.wait();
                        let (status, body) = sign_in(&addr, &device, &token, &id_token);
                        code_zero(status, &body)
                    })
                })
                .collect();
            barrier.wait();
            std::thread::sleep(Duration::from_micros(rand_below(window.as_micros() as usize + 1) as u64));
            server.kill();
            for (g, call) in guests.iter_mut().zip(calls) {
                g.answered = call.join().unwrap();
                answered += usize::from(g.answered);
            }
            server = start(&dir, fakes.google_issuer().as_str());
            last = Some((round, guests));
        }
        if let Some((r, guests)) = last.take() {
            let (m, w) = check(&server, &fakes, r, &guests);
            merged += m;
            whole += w;
        }
        server.stop();
        support::assert_databases_whole(&dir);
        eprintln!(
            "{ROUNDS} kills within {window:?} of {GUESTS} sign-ins starting: {answered} answered, {merged} guests merged, {whole} left whole"
        );
        // Some kills must land while sign-ins were in flight, or nothing was tried.
        assert!(answered < ROUNDS * GUESTS, "every sign-in was answered: no kill landed among them");
        let _ = std::fs::remove_dir_all(&dir);
    })
    .await
    .unwrap();
}
