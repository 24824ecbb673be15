//! The hash slice: the open file's SHA-256, which the worker works out a
//! step at a time (bookmarks and links name the file by it).

use hexlens_core::protocol::Request;
use std::rc::Rc;

/// Bytes one step of hashing the file covers: small, so the panes' questions
/// never wait long behind it. The worker answers in order, and a group opened
/// while a step runs waits for that step: with 4 MiB steps (about 25 ms of
/// hashing, plus reading them) opening any group of a big file right after it
/// was decoded took 35 to 85 ms in the browser, however small the group; with
/// 1 MiB steps, 6 to 10 ms of it (bench/RESULTS.md, issue 30).
pub const HASH_STEP: u64 = 1 << 20;

/// How far hashing the open file got.
#[derive(Debug, Clone, Default)]
pub struct HashState {
    /// The file's SHA-256 in hex, once the worker has hashed it all.
    pub sha: Option<Rc<str>>,
    /// Bytes hashed so far.
    pub sha_at: u64,
}

/// What the worker reports of hashing.
#[derive(Debug, Clone)]
pub enum HashAction {
    /// A step is done: bytes `[from, reached)` are hashed, and `digest` is
    /// the whole file's once the last step is.
    Hashed {
        /// Where the step started.
        from: u64,
        /// Where it ended.
        reached: u64,
        /// The file's digest in hex, after the last step.
        digest: Option<String>,
    },
}

impl HashState {
    /// The slice after `action`, or `None` if nothing changed (a step already
    /// taken, or one of another file's).
    pub fn apply(&self, action: HashAction) -> Option<HashState> {
        let HashAction::Hashed {
            from,
            reached,
            digest,
        } = action;
        if self.sha.is_some() || from != self.sha_at || reached <= from && digest.is_none() {
            return None;
        }
        Some(HashState {
            sha_at: reached,
            sha: digest.as_deref().map(Rc::from),
        })
    }

    /// The next step to ask for, until the digest is known.
    pub fn wants(&self) -> Option<Request> {
        self.sha.is_none().then(|| Request::Hash {
            from: self.sha_at,
            to: self.sha_at.saturating_add(HASH_STEP),
        })
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use crate::state::rig::*;
    use crate::state::*;

    #[test]
    fn the_file_is_hashed_in_steps_and_the_digest_is_its_sha_256() {
        use sha2::Digest;
        let data = sample("basic_code_dxil.dxil.dxbc");
        let want: String = sha2::Sha256::digest(&data)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let r = Rig::new(data, None);
        assert_eq!(r.s.hash.sha.as_deref(), Some(want.as_str()));
        assert!(!r
            .s
            .wants()
            .iter()
            .any(|q| matches!(q, Request::Hash { .. })));
    }
}
