//! What Localwire asks of services outside it, with the answers it keeps: the weather
//! forecast and alerts (Open-Meteo, NWS, ECCC) and today in history (Wikipedia). Each keeps
//! its answers already in the API's envelope (D417), so the HTTP crate only looks them up;
//! a failed upstream gives [`Unavailable`], a message the reader can act on, never a hang.

pub mod history;
pub mod kept_answer;
pub mod upstream;
pub mod weather;

/// Why a provider has no answer to give: the text a reader sees (a 503 envelope).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unavailable(pub String);

impl From<serde_json::Error> for Unavailable {
    fn from(e: serde_json::Error) -> Self {
        Unavailable(format!("An answer could not be written: {e}. Try again later."))
    }
}
