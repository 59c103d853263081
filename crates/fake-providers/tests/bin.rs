//! The `fake-providers` binary that browser tests start: one JSON line of URLs on stdout,
//! then the knobs through `POST /_control`.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

/// Kills the child this test started, even when an assertion fails first.
struct Started(Child);

impl Drop for Started {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test]
async fn bin_prints_its_urls_and_obeys_control() {
    let mut child = Started(
        Command::new(env!("CARGO_BIN_EXE_fake-providers"))
            .args(["--port", "0"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary starts"),
    );
    let stdout = child.0.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("one line");
    let urls: Value = serde_json::from_str(&line).expect("a JSON line");
    let issuer = urls["google_issuer"].as_str().expect("google_issuer");
    assert!(issuer.starts_with("http://127.0.0.1:") && issuer.ends_with("/google"));
    assert!(urls["facebook_graph_url"].as_str().is_some());
    assert!(urls["facebook_dialog_url"].as_str().is_some());
    let control = format!("{}/_control", issuer.trim_end_matches("/google"));

    let http = reqwest::Client::new();
    let discovery = format!("{issuer}/.well-known/openid-configuration");
    let doc: Value = http
        .get(&discovery)
        .send()
        .await
        .expect("discovery")
        .json()
        .await
        .expect("JSON");
    assert_eq!(doc["issuer"], issuer);

    let set = |body: Value| http.post(&control).json(&body).send();
    assert_eq!(
        set(json!({"google_fault": "Down"})).await.expect("control").status(),
        200
    );
    let down = http.get(&discovery).send().await.expect("answer").status();
    assert_eq!(down, 500);
    let user = json!({"facebook_user": {"id": "1", "name": "N", "email": null, "picture": ""}});
    assert_eq!(set(user).await.expect("control").status(), 200);
    assert_eq!(set(json!({"reset": true})).await.expect("control").status(), 200);
    let up = http.get(&discovery).send().await.expect("answer").status();
    assert_eq!(up, 200);
    let unknown = set(json!({"google_fault": "Sideways"})).await.expect("control");
    assert!(unknown.status().is_client_error());
}

#[test]
fn bin_refuses_an_unknown_argument() {
    let out = Command::new(env!("CARGO_BIN_EXE_fake-providers"))
        .arg("--colour")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("usage"));
}
