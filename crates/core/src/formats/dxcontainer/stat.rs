//! STAT as FXC writes it: an array of `u32` shader statistics, named in the order
//! Wine's `d3dcompiler` reflection reader takes them (`D3D11_SHADER_DESC`; layout
//! notes §8, `specs/notes/dxcontainer-layout.md`). DXC's STAT holds a reflection
//! program instead and is decoded by `program`. It is tested in `rdef`'s tests, whose
//! sample holds both parts.

use super::place::index_name;
use super::{
    names::{self, pick},
    Context,
};
use crate::builder::{Builder, DResult};

/// STAT dwords in the order Wine's reader takes them (`D3D11_SHADER_DESC` names);
/// `None` for dwords it skips without naming.
const STAT_FIELDS: [Option<&str>; 37] = [
    Some("InstructionCount"),
    Some("TempRegisterCount"),
    Some("DefCount"),
    Some("DclCount"),
    Some("FloatInstructionCount"),
    Some("IntInstructionCount"),
    Some("UintInstructionCount"),
    Some("StaticFlowControlCount"),
    Some("DynamicFlowControlCount"),
    Some("MacroInstructionCount"),
    Some("TempArrayCount"),
    Some("ArrayInstructionCount"),
    Some("CutInstructionCount"),
    Some("EmitInstructionCount"),
    Some("TextureNormalInstructions"),
    Some("TextureLoadInstructions"),
    Some("TextureCompInstructions"),
    Some("TextureBiasInstructions"),
    Some("TextureGradientInstructions"),
    Some("MovInstructionCount"),
    None,
    Some("ConversionInstructionCount"),
    None,
    Some("InputPrimitive"),
    Some("GSOutputTopology"),
    Some("GSMaxOutputVertexCount"),
    None,
    None,
    None,
    None,
    Some("cControlPoints"),
    Some("HSOutputPrimitive"),
    Some("HSPartitioning"),
    Some("TessellatorDomain"),
    None,
    None,
    None,
];

/// FXC's STAT: an array of u32 statistics (28, 29 or 37 dwords).
pub(super) fn fxc_stat(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    let root = b.current();
    let dwords = size / 4;
    let what = match dwords {
        28 => "Direct3D 10 statistics, older layout (28 dwords)",
        29 => "Direct3D 10 statistics (29 dwords)",
        37 => "Direct3D 11 statistics (37 dwords)",
        _ => "statistics of a size Wine's reader does not know (it knows 28, 29 and 37 dwords)",
    };
    b.set_display(root, what);
    for i in 0..dwords {
        match STAT_FIELDS.get(i as usize).copied().flatten() {
            Some(name) => {
                let v = b.u32(name)? as u64;
                let shown = match name {
                    "InputPrimitive" => names::input_primitive(v),
                    "GSOutputTopology" => names::primitive_topology(v),
                    "HSOutputPrimitive" => names::tessellator_output(v),
                    "HSPartitioning" => tessellator_partitioning(v),
                    "TessellatorDomain" => names::tessellator_domain(v),
                    _ => continue,
                };
                b.display(shown.map_or_else(|| format!("unknown ({v})"), str::to_string));
            }
            None => {
                b.u32(index_name(i))?;
                b.display("not identified (Wine's reader skips this dword)");
            }
        }
    }
    let rest = size % 4;
    if rest > 0 {
        b.bytes("Extra", rest)?;
        b.error(format!("{rest} bytes after the last whole dword"));
    }
    Ok(())
}

/// Tessellator partitioning (`D3D_TESSELLATOR_PARTITIONING`).
pub fn tessellator_partitioning(v: u64) -> Option<&'static str> {
    pick(
        &[
            "Undefined",
            "Integer",
            "Pow2",
            "FractionalOdd",
            "FractionalEven",
        ],
        v,
    )
}
