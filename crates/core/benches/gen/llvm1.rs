//! A large LLVM 1.x bytecode file for the benchmarks: an LLVM 1.3 (revision 3,
//! short block headers, 32-bit alignment) module written with the fixtures'
//! generator (`tests/generators/llvm1.rs`): a global type pool, module info, a
//! constant pool, `functions` function blocks (each with a constant pool, an
//! instruction list and a symbol table naming its values) and a module symbol
//! table naming every function.

#[path = "../../../../tests/generators/llvm1.rs"]
mod writer;

use writer::{vbr, vbr_i64, Id, W};

/// A module with `functions` functions.
pub fn file(functions: usize) -> Vec<u8> {
    let mut w = W::file(3);
    w.module(0b0011, |w| {
        let mut defs = Vec::new();
        for i in 0..64u64 {
            vbr(&mut defs, 15); // pointer
            vbr(&mut defs, 7 + i % 4);
        }
        w.type_pool(64, &defs);
        w.block(Id::ModuleGlobalInfo, |w| {
            // No global variables; one function type slot per function; the
            // target triple.
            w.vbr(0);
            for _ in 0..functions {
                w.vbr((16 << 5) | 1);
            }
            w.vbr(0);
            w.string("i686-pc-linux-gnu");
        });
        w.block(Id::ConstantPool, |w| {
            w.vbr(256);
            w.vbr(7);
            for i in 0..256i64 {
                w.vbr(0);
                let mut d = Vec::new();
                vbr_i64(&mut d, i * 1000 - 5000);
                w.bytes(&d);
            }
        });
        for f in 0..functions {
            w.function(1, |w| {
                w.block(Id::ConstantPool, |w| {
                    w.vbr(4);
                    w.vbr(7);
                    for k in 0..4i64 {
                        w.vbr(0);
                        let mut d = Vec::new();
                        vbr_i64(&mut d, k - 2);
                        w.bytes(&d);
                    }
                });
                w.block(Id::InstructionList, |w| {
                    for k in 0..48u32 {
                        w.u32(0xFFF0_0705 ^ (k << 8));
                    }
                });
                let names: Vec<(u64, String)> =
                    (0..12u64).map(|v| (v, format!("tmp.{f}.{v}"))).collect();
                let entries: Vec<(u64, &str)> =
                    names.iter().map(|(v, n)| (*v, n.as_str())).collect();
                w.symbol_table(&[], &[(7, &entries)]);
            });
        }
        let names: Vec<(u64, String)> = (0..functions as u64)
            .map(|f| (f, format!("function_{f}")))
            .collect();
        let entries: Vec<(u64, &str)> = names.iter().map(|(v, n)| (*v, n.as_str())).collect();
        w.symbol_table(&[(13, "struct.node")], &[(16, &entries)]);
    });
    w.buf
}
