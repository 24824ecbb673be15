//! The first page (`www/index.html`'s `#shell`, made to work by
//! `static/shell.js`) stands in for the app until a file is chosen: its toolbar
//! must show what the app's toolbar shows, and its empty state (which the app
//! keeps, and shows whenever no file is open) must list the formats the core
//! decodes. Checked here against the app's components and the core's format
//! catalogue, so they cannot drift apart.

use std::path::Path;

fn read(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The markup of the element `<div id="shell">` (up to its closing tag).
fn shell() -> String {
    let html = read("www/index.html");
    let start = html
        .find("<div id=\"shell\">")
        .expect("www/index.html has the first page");
    let end = start
        + html[start..]
            .find("</div>\n    <div id=\"app-root\">")
            .expect("the first page ends before the app's root");
    html[start..end].to_string()
}

/// Text between tags, entities left as they are.
fn text(markup: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in markup.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

#[test]
fn the_first_page_lists_every_format_the_app_lists_in_its_order() {
    let s = shell();
    let p = s
        .find("<p class=\"formats\">")
        .expect("a formats paragraph");
    let para = &s[p..p + s[p..].find("</p>").unwrap()];
    let mut want = String::from("Reads: ");
    for (i, f) in hexlens_core::formats::catalog().iter().enumerate() {
        if i > 0 {
            want.push_str(", ");
        }
        want.push_str(&format!("{} ({})", f.name, f.extensions.join(", ")));
        assert!(
            para.contains(&format!(
                "<span title=\"{}\" class=\"format\">{}</span>",
                f.description, f.name
            )),
            "the first page names {} with its description",
            f.name
        );
    }
    want.push_str(" · anything else is shown as plain hex.");
    assert_eq!(text(para), want);
}

#[test]
fn the_first_page_has_the_controls_and_texts_of_the_apps_empty_page() {
    let s = shell();
    for id in [
        "file-input",
        "file-input-empty",
        "sample-select",
        "sample-list",
        "empty-state",
        "goto-input",
        "privacy-note",
        "drop-overlay",
    ] {
        assert!(
            s.contains(&format!("id=\"{id}\"")),
            "the first page has #{id}"
        );
    }
    // Every sentence of its toolbar and drop overlay is one the app's
    // components show (the empty state is the app's own: it keeps it).
    let components = [
        "src/components/toolbar.rs",
        "src/components/drop_overlay.rs",
    ]
    .map(read)
    .join("\n");
    let empty = s.find("<main id=\"empty-state\"").unwrap();
    let empty_end = empty + s[empty..].find("</main>").unwrap();
    let shown = format!("{}{}", &s[..empty], &s[empty_end..]).replace('<', "\n<");
    let mut checked = 0;
    for line in text(&shown).lines().map(str::trim).filter(|l| l.len() > 3) {
        assert!(
            components.contains(line),
            "{line:?} is not a text of the app's empty page"
        );
        checked += 1;
    }
    assert!(checked >= 4, "{checked} texts checked");
    // The app takes the empty state over when it starts.
    assert!(read("src/app.rs").contains("get_element_by_id(\"empty-state\")"));
    // It loads its script, and no other.
    let html = read("www/index.html");
    assert!(html.contains("<script type=\"module\" src=\"./static/shell.js\"></script>"));
    assert!(read("static/shell.js").contains("window.hexlensStart()"));
}
