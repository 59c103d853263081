//! An answer kept as the bytes the API sends, with their ETag.

use bytes::Bytes;
use serde::Serialize;

/// A success envelope's bytes and their weak ETag, made once and sent many times.
#[derive(Debug, Clone)]
pub struct KeptAnswer {
    pub body: Bytes,
    pub etag: String,
}

impl KeptAnswer {
    pub fn of<T: Serialize>(data: T) -> Result<KeptAnswer, serde_json::Error> {
        let body = domain::envelope::ok_body(data)?;
        Ok(KeptAnswer {
            etag: domain::envelope::weak_etag(&body),
            body: Bytes::from(body),
        })
    }
}
