//! Small inline SVG icons (no icon font, no extra request).

use yew::prelude::*;

/// A folder.
pub fn folder() -> Html {
    html! {
        <svg class="icon" viewBox="0 0 16 16" width="15" height="15" aria-hidden="true">
            <path d="M1.75 3.5c0-.7.55-1.25 1.25-1.25h3.2l1.6 1.6h5.2c.7 0 1.25.55 1.25 1.25v7.4c0 .7-.55 1.25-1.25 1.25H3c-.7 0-1.25-.55-1.25-1.25z"
                fill="none" stroke="currentColor" stroke-width="1.4" stroke-linejoin="round" />
        </svg>
    }
}

/// A padlock.
pub fn lock() -> Html {
    html! {
        <svg class="icon" viewBox="0 0 16 16" width="13" height="13" aria-hidden="true">
            <rect x="3" y="7" width="10" height="7" rx="1.5" fill="currentColor" />
            <path d="M5.2 7V5.2a2.8 2.8 0 0 1 5.6 0V7" fill="none" stroke="currentColor" stroke-width="1.5" />
        </svg>
    }
}

/// An arrow into a tray (drop here).
pub fn drop_here() -> Html {
    html! {
        <svg class="icon" viewBox="0 0 24 24" width="46" height="46" aria-hidden="true">
            <path d="M12 3v11m0 0l-4.5-4.5M12 14l4.5-4.5M4 15v3.5A1.5 1.5 0 0 0 5.5 20h13a1.5 1.5 0 0 0 1.5-1.5V15"
                fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" />
        </svg>
    }
}
