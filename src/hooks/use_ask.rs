//! Asking the decode worker what a part of the page needs: each question once
//! per load and decoding version (an answer that changes nothing must not make
//! the same question go out again).

use crate::state::Request;
use yew::prelude::*;

/// Sends `wants` for load `load` (nothing while no file is open). A question
/// is sent again only once it has stopped being wanted, or the tree's
/// decoding `version` changed.
#[hook]
pub fn use_ask(load: Option<u32>, version: u32, wants: Vec<Request>) {
    let sent = use_mut_ref(Vec::<(u32, u32, Request)>::new);
    use_effect_with((load, version, wants), move |(load, version, wants)| {
        if let Some(load) = *load {
            let mut sent = sent.borrow_mut();
            sent.retain(|(l, v, r)| *l == load && *v == *version && wants.contains(r));
            for w in wants {
                let key = (load, *version, w.clone());
                if !sent.contains(&key) {
                    sent.push(key);
                    let _ = crate::decoder::ask(load, w);
                }
            }
        }
    });
}
