//! The stdio transport the language-server tests share: start `miauc lsp`
//! and read the server's `Content-Length`-framed messages on a thread into
//! a channel, so a test can wait with a time-out instead of blocking on a
//! silent server.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;

/// A running `miauc lsp` with its input and the messages it has written.
pub struct Transport {
    /// The server process.
    pub child: Child,
    /// The server's standard input, for frames (or deliberately broken bytes).
    pub stdin: ChildStdin,
    /// Every message the server writes, in order; closed when it exits.
    pub rx: mpsc::Receiver<Value>,
}

impl Transport {
    /// Starts the server binary cargo built for these tests.
    pub fn spawn() -> Transport {
        let mut child = Command::new(env!("CARGO_BIN_EXE_miauc"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("miauc lsp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || read_frames(stdout, tx));
        Transport { child, stdin, rx }
    }
}

/// Reads frames until the server closes its output or the test stops
/// listening. A frame whose body is not JSON is skipped: the tests judge
/// what the server says, and a broken frame shows up as a missing answer.
fn read_frames(stdout: ChildStdout, tx: mpsc::Sender<Value>) {
    let mut r = BufReader::new(stdout);
    loop {
        let mut len = 0;
        loop {
            let mut line = String::new();
            if r.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(v) = line.strip_prefix("Content-Length: ") {
                len = v.parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; len];
        if r.read_exact(&mut body).is_err() {
            return;
        }
        if let Ok(v) = serde_json::from_slice(&body)
            && tx.send(v).is_err()
        {
            return;
        }
    }
}
