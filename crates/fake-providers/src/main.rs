//! Runs the fake Google and Facebook for browser tests: `fake-providers --port N` (0 = any
//! free port). Prints one JSON line with the URLs to configure, then serves until killed.
//! Turn the knobs with `POST /_control` (see `fake_providers::Control`).

use std::io::Write;

use fake_providers::{FACEBOOK_APP_ID, FACEBOOK_APP_SECRET, FakeProviders, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET};

const USAGE: &str = "usage: fake-providers [--port N]   (N = 0 picks a free port)";

fn port_from_args() -> Result<u16, String> {
    let mut port = 0;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = match arg.as_str() {
            "--port" => args.next().ok_or_else(|| USAGE.to_owned())?,
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => match other.strip_prefix("--port=") {
                Some(v) => v.to_owned(),
                None => return Err(format!("unknown argument {other}\n{USAGE}")),
            },
        };
        port = value
            .parse()
            .map_err(|_| format!("--port wants a number from 0 to 65535\n{USAGE}"))?;
    }
    Ok(port)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let port = match port_from_args() {
        Ok(port) => port,
        Err(message) => {
            eprintln!("{message}");
            return std::process::ExitCode::from(2);
        }
    };
    let fakes = match FakeProviders::start_on(port).await {
        Ok(fakes) => fakes,
        Err(e) => {
            eprintln!("fake-providers: cannot listen on 127.0.0.1:{port}: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let line = serde_json::json!({
        "google_issuer": fakes.google_issuer(),
        "facebook_graph_url": fakes.facebook_graph_url(),
        "facebook_dialog_url": fakes.facebook_dialog_url(),
        "control_url": fakes.control_url(),
        "google_client_id": GOOGLE_CLIENT_ID,
        "google_client_secret": GOOGLE_CLIENT_SECRET,
        "facebook_app_id": FACEBOOK_APP_ID,
        "facebook_app_secret": FACEBOOK_APP_SECRET,
    });
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
        return std::process::ExitCode::FAILURE;
    }
    drop(out);
    std::future::pending::<()>().await;
    std::process::ExitCode::SUCCESS
}
