//! The image proxy's HTTP side (D380): `GET /proxy/{mac}/{address}`. Apart from the signing
//! and fetching in `image_proxy`, which the app state holds, so that imports run one way.

use crate::envelope::ApiError;
use crate::image_proxy::cache::{Image, Kept};
use crate::rate_limit::client_ip;
use crate::state::AppState;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::time::Duration;

/// `GET /proxy/{mac}/{address}`: the image, or the API's envelope saying why not.
pub async fn serve(
    State(state): State<AppState>,
    Path((mac, encoded)): Path<(String, String)>,
    req: Request,
) -> Response {
    let proxy = &state.image_proxy;
    if !proxy.enabled() {
        return ApiError::NotFound.into_response();
    }
    // A forged or unsigned address is refused before anything is fetched.
    let Some(url) = proxy.verified(&mac, &encoded) else {
        return ApiError::Forbidden.into_response();
    };
    let client = client_ip(&req, state.config.trust_forwarded_for);
    let kept = match proxy.image(&url, client).await {
        Ok(kept) => kept,
        Err(e) => return e.into_response(),
    };
    match &*kept {
        Kept::Failed { status, message } => {
            let status = StatusCode::from_u16(*status).unwrap_or(StatusCode::BAD_GATEWAY);
            let mut res = ApiError::Upstream(status, message.clone()).into_response();
            res.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=60"));
            res
        }
        Kept::Image(image) => image_response(image, &req, proxy.config.max_age),
    }
}

fn image_response(image: &Image, req: &Request, max_age: Duration) -> Response {
    let not_modified = crate::envelope::names_etag(req.headers().get(header::IF_NONE_MATCH), &image.etag);
    let mut res = if not_modified {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut res = (StatusCode::OK, image.body.clone()).into_response();
        if let Ok(v) = HeaderValue::from_str(&image.content_type) {
            res.headers_mut().insert(header::CONTENT_TYPE, v);
        }
        res
    };
    let h = res.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&image.etag) {
        h.insert(header::ETAG, v);
    }
    if let Ok(v) = HeaderValue::from_str(&format!("public, max-age={}", max_age.as_secs())) {
        h.insert(header::CACHE_CONTROL, v);
    }
    // Opened on its own, the answer is inert whatever a publisher put in it.
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; sandbox"),
    );
    res
}
