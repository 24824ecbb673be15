//! A large Chapel `.dyno` library for the benchmarks: one module holding about
//! `symbols` symbol-table entries (records with fields, and constants initialised
//! by literals, some with long names that go through the long strings table),
//! written by the fixtures' generator (`tests/generators/dyno.rs`) in the 2024
//! writer's layout, little-endian, with its location groups, symbol table, gen-code
//! section and file hash.

#[path = "../../../../tests/generators/dyno.rs"]
mod writer;

use writer::{ident, loc, Layout, Loc, Node, F};

fn node(tag: u8, fields: Vec<F>, children: Vec<Node>, l: Loc, sym: Option<String>) -> Node {
    Node {
        tag,
        attr: -1,
        fields,
        children,
        loc: l,
        sym,
        gens: Vec::new(),
    }
}

/// `Decl` fields (default visibility and linkage, no linkage name or destination)
/// and the name.
fn named(name: &str) -> Vec<F> {
    vec![
        F::U8(0),
        F::U8(0),
        F::Vi(-1),
        F::Vi(-1),
        F::Ustr(name.to_string()),
    ]
}

/// A `Variable` (`kind` 4: var, 5: const) with one child: its type or its
/// initialiser.
fn variable(name: &str, kind: u8, typed: bool, child: Node, l: Loc, id: String) -> Node {
    let mut f = named(name);
    f.extend([
        F::U8(kind),
        F::I8(if typed { 0 } else { -1 }),
        F::I8(if typed { -1 } else { 0 }),
        F::U8(0),
        F::U8(typed as u8),
    ]);
    node(writer::T_VARIABLE, f, vec![child], l, Some(id))
}

fn int_lit(v: i64, l: Loc) -> Node {
    node(
        writer::T_INT_LITERAL,
        vec![F::U8(3), F::I64(v), F::Ustr(v.to_string())],
        vec![],
        l,
        None,
    )
}

/// The file: a module of about `symbols` symbols; every fourth group is a record
/// with three fields, the others are constants.
pub fn file(symbols: usize) -> Vec<u8> {
    let mut stmts = Vec::new();
    let mut made = 1; // the module itself
    let mut line = 2i64;
    let mut i = 0usize;
    while made < symbols {
        if i.is_multiple_of(4) {
            let rec = format!("Rec{i}");
            let fields: Vec<Node> = ["alpha", "beta", "gamma"]
                .iter()
                .enumerate()
                .map(|(k, f)| {
                    let l = line + 1 + k as i64;
                    variable(
                        f,
                        4,
                        true,
                        ident("int", loc(l, 12, l, 14)),
                        loc(l, 5, l, 15).with(2, l, 9, l, 9 + f.len() as u64),
                        format!("{rec}.{f}"),
                    )
                })
                .collect();
            let mut f = named(&rec);
            f.extend([F::Vi(-1), F::Vi(0), F::Vi(0), F::Vi(3)]);
            let l = loc(line, 3, line + 4, 3).with(2, line, 10, line, 10 + rec.len() as u64);
            let mut r = node(writer::T_RECORD, f, fields, l, Some(rec.clone()));
            r.gens.push((false, format!("{rec}_chpl")));
            stmts.push(r);
            made += 4;
            line += 5;
        } else {
            // Every third constant's name is long enough for the long strings table.
            let name = if i.is_multiple_of(3) {
                format!("configuration_constant_number_{i}")
            } else {
                format!("c{i}")
            };
            let end = 9 + name.len() as u64;
            stmts.push(variable(
                &name,
                5,
                false,
                int_lit(i as i64, loc(line, end + 3, line, end + 8)),
                loc(line, 3, line, end + 9).with(2, line, 9, line, end),
                name.clone(),
            ));
            made += 1;
            line += 1;
        }
        i += 1;
    }
    let mut f = named("Big");
    f.push(F::U8(0));
    let module = node(
        writer::T_MODULE,
        f,
        stmts,
        loc(1, 1, line, 1).with(2, 1, 8, 1, 10),
        Some(String::new()),
    );
    writer::file(&[(module, "big.chpl")], Layout::Writer, false).0
}
