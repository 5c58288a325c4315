//! Standard input and output, and the frame filter between standard input
//! and the protocol layer.
//!
//! The protocol layer stops reading for good at the first frame it can't
//! decode, so every frame passes through [`filter_frames`] first: it drops
//! malformed frames (noting each on stderr), resynchronises on the next
//! `Content-Length` header, bounds a message's size, and makes `$/` requests
//! answerable. Standard output carries the protocol and nothing else: its
//! one writer is the protocol layer that [`run_stdio`] starts here.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tower_lsp_server::Server;

/// The largest message body passed on to the protocol layer; larger ones are
/// read and dropped, so a hostile length can't make the server allocate without bound.
const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

/// Whether a message body is one JSON-RPC request, notification or response.
fn is_message(body: &[u8]) -> bool {
    serde_json::from_slice::<tower_lsp_server::jsonrpc::Request>(body).is_ok()
        || serde_json::from_slice::<tower_lsp_server::jsonrpc::Response>(body).is_ok()
}

/// Set when a `shutdown` request passed the frame filter: `exit` after it
/// ends the process with status 0, `exit` without it with status 1 (LSP).
static SHUTDOWN_SEEN: AtomicBool = AtomicBool::new(false);

/// Input with bytes pushed back in front: the frame filter un-reads what
/// turned out to be the start of the next frame.
struct Frames<R> {
    reader: tokio::io::BufReader<R>,
    pending: Vec<u8>,
}

impl<R: tokio::io::AsyncRead + Unpin> Frames<R> {
    /// One line (through `\n`) of at most `limit` bytes; `None` at the end of the input.
    async fn line(&mut self, limit: usize) -> Option<Vec<u8>> {
        use tokio::io::{AsyncBufReadExt, AsyncReadExt};
        if !self.pending.is_empty() {
            let end = self
                .pending
                .iter()
                .take(limit)
                .position(|&b| b == b'\n')
                .map_or(self.pending.len().min(limit), |i| i + 1);
            let line: Vec<u8> = self.pending.drain(..end).collect();
            if line.ends_with(b"\n") || line.len() == limit {
                return Some(line);
            }
            // The pending bytes end mid-line: the rest comes from the input.
            let mut rest = Vec::new();
            let _ = (&mut self.reader)
                .take((limit - line.len()) as u64)
                .read_until(b'\n', &mut rest)
                .await;
            return Some([line, rest].concat());
        }
        let mut line = Vec::new();
        match (&mut self.reader)
            .take(limit as u64)
            .read_until(b'\n', &mut line)
            .await
        {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line),
        }
    }

    /// Up to `max` more bytes, as many as are ready; `None` at the end of the input.
    async fn chunk(&mut self, max: usize) -> Option<Vec<u8>> {
        use tokio::io::AsyncBufReadExt;
        if !self.pending.is_empty() {
            let n = self.pending.len().min(max);
            return Some(self.pending.drain(..n).collect());
        }
        let buf = self.reader.fill_buf().await.ok()?;
        if buf.is_empty() {
            return None;
        }
        let n = buf.len().min(max);
        let out = buf[..n].to_vec();
        self.reader.consume(n);
        Some(out)
    }

    fn unread(&mut self, bytes: &[u8]) {
        self.pending.splice(0..0, bytes.iter().copied());
    }
}

/// A `Content-Length` header line found in bytes that may be cut short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HeaderScan {
    /// A header starts here: the name, digits and a line break.
    At(usize),
    /// The name and digits run to the end of the bytes: a header only if a
    /// line break follows, which bytes not read yet decide.
    Undecided(usize),
    /// No header, nor the start of one.
    None,
}

/// Where a `Content-Length` header line starts in `bytes`, if one does
/// (case-insensitive). A JSON body can't hold one (a JSON string can't hold
/// a raw line break), so one inside a body means its length was wrong.
fn scan_header(bytes: &[u8], from: usize) -> HeaderScan {
    const NAME: &[u8] = b"content-length:";
    let mut start = from.min(bytes.len());
    while let Some(i) = bytes[start..]
        .windows(NAME.len())
        .position(|w| w.eq_ignore_ascii_case(NAME))
        .map(|i| start + i)
    {
        // A header: digits, then the blank line that ends the headers.
        let rest = &bytes[i + NAME.len()..];
        let spaces = rest
            .iter()
            .take_while(|b| **b == b' ' || **b == b'\t')
            .count();
        let rest = &rest[spaces..];
        let n = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if rest.len() == n {
            return HeaderScan::Undecided(i);
        }
        if n > 0 && (rest[n..].starts_with(b"\r\n") || rest[n..].starts_with(b"\n")) {
            return HeaderScan::At(i);
        }
        start = i + 1;
    }
    // A name cut short at the end may still become a header.
    let tail = bytes.len().saturating_sub(NAME.len() - 1).max(start);
    match (tail..bytes.len()).find(|&i| NAME[..bytes.len() - i].eq_ignore_ascii_case(&bytes[i..])) {
        Some(i) => HeaderScan::Undecided(i),
        None => HeaderScan::None,
    }
}

/// Where a header starts in a line read whole (or cut at its length limit,
/// where digits running to the end count as a header).
fn header_in(line: &[u8], from: usize) -> Option<usize> {
    match scan_header(line, from) {
        HeaderScan::At(i) => Some(i),
        HeaderScan::Undecided(i) => {
            let rest = line.get(i + b"content-length:".len()..).unwrap_or_default();
            rest.iter().any(u8::is_ascii_digit).then_some(i)
        }
        _ => None,
    }
}

/// A `$/` request (with an id) renamed so the protocol layer answers it
/// with MethodNotFound, as LSP requires; the layer otherwise drops every
/// `$/` method without a reply, and the client waits forever.
fn answerable(body: Vec<u8>) -> Vec<u8> {
    let Ok(mut v) = serde_json::from_slice::<serde_json::Value>(&body) else {
        return body;
    };
    let Some(method) = v.get("method").and_then(|m| m.as_str()) else {
        return body;
    };
    if method == "shutdown" {
        SHUTDOWN_SEEN.store(true, Ordering::SeqCst);
    }
    if !method.starts_with("$/") || v.get("id").is_none() {
        return body;
    }
    v["method"] = serde_json::Value::String(format!("miau/unsupported{method}"));
    serde_json::to_vec(&v).unwrap_or(body)
}

/// Copy LSP frames from `input` to `output`, passing on only well-formed
/// JSON-RPC messages with a plain `Content-Length` header.
///
/// The protocol layer stops reading for good at the first frame it can't
/// decode (a body that isn't JSON-RPC, a missing length, an unknown charset),
/// which would leave the editor with a dead server; this filter drops such
/// frames instead (noting each on stderr) and keeps the connection alive.
/// After a frame with a missing or wrong length it resynchronises on the next
/// `Content-Length` header, wherever it starts, so later frames aren't glued
/// onto the bad one.
pub async fn filter_frames<R, W>(input: R, mut output: W)
where
    R: tokio::io::AsyncRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    use tokio::io::AsyncWriteExt;
    let mut frames = Frames {
        reader: tokio::io::BufReader::new(input),
        pending: Vec::new(),
    };
    loop {
        let mut len: Option<usize> = None;
        let mut headers = 0;
        loop {
            // Header lines are short; a line without end is garbage, read in bounded pieces.
            let Some(mut line) = frames.line(8192).await else {
                return;
            };
            // A header glued onto the tail of a bad frame starts mid-line.
            if let Some(at) = header_in(&line, 1) {
                eprintln!("miauc lsp: dropped {at} bytes before a Content-Length header");
                line.drain(..at);
                len = None;
                headers = 0;
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim();
            if text.is_empty() {
                if headers > 0 {
                    break;
                }
                continue;
            }
            headers += 1;
            if let Some((name, value)) = text.split_once(':') {
                if name.trim().eq_ignore_ascii_case("content-length") {
                    len = value.trim().parse().ok();
                }
            }
        }
        let Some(len) = len else {
            eprintln!("miauc lsp: dropped a message without a Content-Length header");
            continue;
        };
        if len > MAX_MESSAGE_BYTES {
            eprintln!("miauc lsp: dropped a message of {len} bytes");
            let mut left = len;
            while left > 0 {
                let Some(c) = frames.chunk(left.min(1 << 16)).await else {
                    return;
                };
                left -= c.len();
            }
            continue;
        }
        // The body, as it arrives: a header inside it means the length was
        // too long, and the next frame starts there (no waiting for bytes
        // that will never come).
        let mut body = Vec::with_capacity(len.min(1 << 20));
        let mut cut = None;
        // Where the scan resumes: past everything that can't start a header,
        // at a candidate the next bytes decide (text such as
        // `content-length: 123…` reaching the end of a read is no header
        // until a line break follows it).
        let mut from = 0;
        while body.len() < len {
            let Some(c) = frames.chunk(len - body.len()).await else {
                return;
            };
            body.extend_from_slice(&c);
            match scan_header(&body, from) {
                HeaderScan::At(at) => {
                    cut = Some(at);
                    break;
                }
                HeaderScan::Undecided(at) => from = at,
                HeaderScan::None => from = body.len(),
            }
        }
        if let Some(at) = cut {
            frames.unread(&body[at..]);
            eprintln!("miauc lsp: dropped a message whose Content-Length was too long");
            continue;
        }
        if !is_message(&body) {
            eprintln!("miauc lsp: dropped a message that isn't JSON-RPC");
            continue;
        }
        let body = answerable(body);
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        if output.write_all(header.as_bytes()).await.is_err()
            || output.write_all(&body).await.is_err()
            || output.flush().await.is_err()
        {
            return;
        }
    }
}

/// Serve LSP over standard input and output until the client exits.
pub fn run_stdio() -> std::process::ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("miauc lsp: cannot start the runtime: {e}");
            return std::process::ExitCode::from(1);
        }
    };
    runtime.block_on(async {
        let (service, socket) = super::service();
        let (filtered, sink) = tokio::io::duplex(1 << 20);
        tokio::spawn(filter_frames(tokio::io::stdin(), sink));
        Server::new(filtered, tokio::io::stdout(), socket)
            .serve(service)
            .await;
    });
    // Blocking tasks (an analysis in flight) must not keep the process alive after `exit`.
    runtime.shutdown_timeout(Duration::from_millis(100));
    // LSP: exit status 0 after a `shutdown` request, 1 otherwise.
    std::process::ExitCode::from(u8::from(!SHUTDOWN_SEEN.load(Ordering::SeqCst)))
}

#[cfg(test)]
mod tests {
    use super::{HeaderScan, header_in, scan_header};

    #[test]
    fn a_header_needs_its_line_break() {
        assert_eq!(
            scan_header(b"xContent-Length: 12\r\n", 0),
            HeaderScan::At(1)
        );
        assert_eq!(scan_header(b"content-length:7\n", 0), HeaderScan::At(0));
        // Text in a JSON string: digits then a quote, never a raw line break.
        assert_eq!(
            scan_header(b"{\"text\":\"content-length: 12\"}", 0),
            HeaderScan::None
        );
        assert_eq!(scan_header(b"content-length: x\n", 0), HeaderScan::None);
    }

    #[test]
    fn digits_or_a_name_at_the_end_are_undecided() {
        let digits = format!("\"content-length: {}", "9".repeat(5000));
        assert_eq!(scan_header(digits.as_bytes(), 0), HeaderScan::Undecided(1));
        assert_eq!(scan_header(b"abc Content-Le", 0), HeaderScan::Undecided(4));
        // A later candidate is still found after a rejected one.
        assert_eq!(
            scan_header(b"content-length: 1\" content-length: 2\n", 0),
            HeaderScan::At(19)
        );
    }

    #[test]
    fn a_line_cut_at_its_limit_keeps_a_header_with_digits() {
        assert_eq!(header_in(b"junk content-length: 123", 1), Some(5));
        assert_eq!(header_in(b"junk content-length: ", 1), None);
        assert_eq!(header_in(b"junk content-len", 1), None);
    }
}
