//! Share strings: a pack's JSON packed into one URL-safe line.
//!
//! Format: the prefix [`PREFIX`] (`miau1:`), then the raw-deflate compression of
//! the UTF-8 JSON, written in base64url without padding. The version lives in
//! the prefix so a later format can change the payload without breaking links
//! that are already out there.
//!
//! Decoding takes untrusted input (a pasted link), so it never panics and
//! bounds the inflated size by [`MAX_DECODED_BYTES`]: a few kilobytes of
//! deflate can otherwise expand to gigabytes.

use std::fmt;

/// The versioned prefix of every share string.
pub const PREFIX: &str = "miau1:";

/// The largest JSON a share string may inflate to (16 MiB).
pub const MAX_DECODED_BYTES: usize = 16 * 1024 * 1024;

/// Compression level: the best ratio; packs are small, so speed doesn't matter.
const LEVEL: u8 = 9;

/// Why a share string couldn't be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareError {
    /// The string doesn't start with a known prefix.
    UnknownPrefix,
    /// A character outside base64url, or a length no base64 text can have.
    BadEncoding,
    /// The payload isn't valid deflate data.
    BadCompression,
    /// The payload inflates past [`MAX_DECODED_BYTES`].
    TooLarge,
    /// The inflated payload isn't UTF-8.
    NotUtf8,
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ShareError::UnknownPrefix => {
                "this isn't a Miau share string (it should start with miau1:)"
            }
            ShareError::BadEncoding => {
                "the share string is damaged: it has characters a share string can't have"
            }
            ShareError::BadCompression => "the share string is damaged: its data doesn't unpack",
            ShareError::TooLarge => {
                "the share string unpacks to more than 16 MiB, more than any pack"
            }
            ShareError::NotUtf8 => "the share string is damaged: its data isn't text",
        })
    }
}

impl std::error::Error for ShareError {}

/// Encode pack JSON as a share string: `miau1:` + base64url(deflate(json)).
pub fn encode(json: &str) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), LEVEL);
    let mut out = String::with_capacity(PREFIX.len() + packed.len() * 4 / 3 + 4);
    out.push_str(PREFIX);
    base64url_encode(&packed, &mut out);
    out
}

/// Decode a share string back to the JSON text it carries.
///
/// Surrounding whitespace is ignored (links get pasted with newlines).
pub fn decode(s: &str) -> Result<String, ShareError> {
    let body = s
        .trim()
        .strip_prefix(PREFIX)
        .ok_or(ShareError::UnknownPrefix)?;
    let packed = base64url_decode(body)?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_DECODED_BYTES)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => ShareError::TooLarge,
            _ => ShareError::BadCompression,
        })?;
    String::from_utf8(bytes).map_err(|_| ShareError::NotUtf8)
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url (RFC 4648 §5) without padding.
fn base64url_encode(data: &[u8], out: &mut String) {
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            let idx = (n >> (18 - 6 * i)) & 63;
            out.push(ALPHABET[idx as usize] as char);
        }
    }
}

fn sextet(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    } as u32)
}

/// Decode unpadded base64url; rejects stray characters, impossible lengths and
/// non-zero trailing bits (so every payload has exactly one spelling).
fn base64url_decode(text: &str) -> Result<Vec<u8>, ShareError> {
    let bytes = text.as_bytes();
    if bytes.len() % 4 == 1 {
        return Err(ShareError::BadEncoding);
    }
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= sextet(c).ok_or(ShareError::BadEncoding)? << (18 - 6 * i);
        }
        let produced = chunk.len() - 1;
        let all = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        // Bits past the last whole byte must be zero in a canonical encoding.
        let leftover_mask = match produced {
            1 => 0xFFFF,
            2 => 0xFF,
            _ => 0,
        };
        if n & leftover_mask != 0 {
            return Err(ShareError::BadEncoding);
        }
        out.extend_from_slice(&all[..produced]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn round_trips_text_with_emoji() {
        let json = "{\n  \"manifest\": {\"name\": \"Crate Works 📦\"}\n}\n";
        let s = encode(json);
        assert!(s.starts_with("miau1:"));
        assert!(s[PREFIX.len()..].bytes().all(|b| sextet(b).is_some()));
        assert_eq!(decode(&s).unwrap(), json);
        assert_eq!(decode(&format!("  {s}\n")).unwrap(), json);
    }

    #[test]
    fn empty_round_trips() {
        assert_eq!(decode(&encode("")).unwrap(), "");
    }

    #[test]
    fn base64_matches_rfc_vectors() {
        for (raw, enc) in [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ] {
            let mut s = String::new();
            base64url_encode(raw.as_bytes(), &mut s);
            assert_eq!(s, enc);
            assert_eq!(base64url_decode(enc).unwrap(), raw.as_bytes());
        }
        assert_eq!(base64url_decode("Zh"), Err(ShareError::BadEncoding));
        assert_eq!(base64url_decode("Z"), Err(ShareError::BadEncoding));
        assert_eq!(base64url_decode("Zm9v+"), Err(ShareError::BadEncoding));
    }

    #[test]
    fn rejects_garbage() {
        assert_eq!(decode("hello"), Err(ShareError::UnknownPrefix));
        assert_eq!(decode("miau1:!!!!"), Err(ShareError::BadEncoding));
        assert_eq!(decode("miau1:AAAA"), Err(ShareError::BadCompression));
    }

    #[test]
    fn bounds_inflated_size() {
        let big = vec![b'a'; MAX_DECODED_BYTES + 1];
        let packed = miniz_oxide::deflate::compress_to_vec(&big, 9);
        let mut s = PREFIX.to_string();
        base64url_encode(&packed, &mut s);
        assert_eq!(decode(&s), Err(ShareError::TooLarge));
    }

    proptest! {
        #[test]
        fn any_text_round_trips(text in ".{0,200}") {
            prop_assert_eq!(decode(&encode(&text)).unwrap(), text);
        }

        #[test]
        fn garbage_never_panics(body in "[A-Za-z0-9_\\-]{0,300}") {
            let _ = decode(&format!("miau1:{body}"));
        }

        #[test]
        fn arbitrary_strings_never_panic(s in "\\PC{0,100}") {
            let _ = decode(&s);
        }
    }
}
