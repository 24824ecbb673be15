//! The drop target shown while a file is dragged over the page.

use yew::prelude::*;

/// The overlay.
pub fn drop_overlay() -> Html {
    html! {
        <div class="drop-overlay" id="drop-overlay" aria-hidden="true">
            <div class="drop-box">
                <div class="drop-icon">{ super::icons::drop_here() }</div>
                <div class="drop-title">{"Drop to open"}</div>
                <div class="drop-sub">{"The file is read in this tab and never uploaded."}</div>
            </div>
        </div>
    }
}
