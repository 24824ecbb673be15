//! Names for the numbers a `.dyno` file stores: uAST tags, the enums inside uAST
//! payloads, and additional-location tags.
//!
//! The uAST tag is a `uint8_t` holding the position of the node class in Chapel's
//! `frontend/include/chpl/uast/uast-classes-list.h`, where every abstract class also
//! takes two numbers (`START_x` and `END_x`). That list changes between Chapel
//! releases, so a tag's name is only as good as the revision it was taken from:
//! [`TAG_SOURCE`] says which.

/// Where the tag numbering comes from.
pub const TAG_SOURCE: &str =
    "chapel-lang/chapel frontend/include/chpl/uast/uast-classes-list.h @659c09f6 (the numbering changes between Chapel releases)";

/// What a position in the uAST class list is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TagKind {
    /// A node class that may have children.
    Node,
    /// A node class that never has children.
    Leaf,
    /// `START_x` / `END_x` bracketing the subclasses of an abstract class: never a
    /// tag of a serialized node.
    Marker,
}

use TagKind::{Leaf, Marker, Node};

/// The uAST class list in enum order.
const AST_TAGS: &[(&str, TagKind)] = &[
    ("AnonFormal", Node),
    ("As", Node),
    ("Array", Node),
    ("Attribute", Node),
    ("AttributeGroup", Node),
    ("Break", Node),
    ("Catch", Node),
    ("Cobegin", Node),
    ("Conditional", Node),
    ("Comment", Leaf),
    ("Continue", Node),
    ("Delete", Node),
    ("Domain", Node),
    ("Dot", Node),
    ("EmptyStmt", Leaf),
    ("ErroneousExpression", Leaf),
    ("ExternBlock", Leaf),
    ("FunctionSignature", Node),
    ("Identifier", Leaf),
    ("Implements", Node),
    ("Import", Node),
    ("Include", Node),
    ("Init", Node),
    ("Label", Node),
    ("Let", Node),
    ("New", Node),
    ("Range", Node),
    ("Require", Node),
    ("Return", Node),
    ("Select", Node),
    ("Throw", Node),
    ("Try", Node),
    ("Use", Node),
    ("VisibilityClause", Node),
    ("When", Node),
    ("WithClause", Node),
    ("Yield", Node),
    ("START_SimpleBlockLike", Marker),
    ("Begin", Node),
    ("Block", Node),
    ("Defer", Node),
    ("Local", Node),
    ("Manage", Node),
    ("On", Node),
    ("Serial", Node),
    ("Sync", Node),
    ("END_SimpleBlockLike", Marker),
    ("START_Loop", Marker),
    ("DoWhile", Node),
    ("While", Node),
    ("START_IndexableLoop", Marker),
    ("BracketLoop", Node),
    ("Coforall", Node),
    ("For", Node),
    ("Forall", Node),
    ("Foreach", Node),
    ("END_IndexableLoop", Marker),
    ("END_Loop", Marker),
    ("START_Literal", Marker),
    ("BoolLiteral", Leaf),
    ("ImagLiteral", Leaf),
    ("IntLiteral", Leaf),
    ("RealLiteral", Leaf),
    ("UintLiteral", Leaf),
    ("START_StringLikeLiteral", Marker),
    ("BytesLiteral", Leaf),
    ("CStringLiteral", Leaf),
    ("StringLiteral", Leaf),
    ("END_StringLikeLiteral", Marker),
    ("END_Literal", Marker),
    ("START_Call", Marker),
    ("FnCall", Node),
    ("OpCall", Node),
    ("PrimCall", Node),
    ("Reduce", Node),
    ("Scan", Node),
    ("Tuple", Node),
    ("Zip", Node),
    ("END_Call", Marker),
    ("START_Decl", Marker),
    ("MultiDecl", Node),
    ("TupleDecl", Node),
    ("ForwardingDecl", Node),
    ("START_NamedDecl", Marker),
    ("EnumElement", Node),
    ("Function", Node),
    ("Interface", Node),
    ("Module", Node),
    ("TypeQuery", Node),
    ("ReduceIntent", Node),
    ("START_VarLikeDecl", Marker),
    ("Formal", Node),
    ("TaskVar", Node),
    ("VarArgFormal", Node),
    ("Variable", Node),
    ("END_VarLikeDecl", Marker),
    ("START_TypeDecl", Marker),
    ("Enum", Node),
    ("START_AggregateDecl", Marker),
    ("Class", Node),
    ("Record", Node),
    ("Union", Node),
    ("END_AggregateDecl", Marker),
    ("END_TypeDecl", Marker),
    ("END_NamedDecl", Marker),
    ("END_Decl", Marker),
];

/// The name and kind of uAST tag `t`, or `None` past the end of the list
/// (`NUM_AST_TAGS`, `AST_TAG_UNKNOWN` and beyond).
pub fn ast_tag(t: u64) -> Option<(&'static str, TagKind)> {
    usize::try_from(t)
        .ok()
        .and_then(|i| AST_TAGS.get(i))
        .copied()
}

/// The tag number of a node class (used by the payload table and the tests).
pub fn tag_of(name: &str) -> u8 {
    AST_TAGS
        .iter()
        .position(|(n, _)| *n == name)
        .map(|i| i as u8)
        .unwrap_or(u8::MAX)
}

/// Describes tag `t` for a `display`: its class name, or why it is not a node tag.
pub fn describe_tag(t: u64) -> String {
    match ast_tag(t) {
        Some((name, Marker)) => format!("{name}: a class-range marker, not a node tag"),
        Some((name, _)) => name.to_string(),
        None => format!("unknown ({t}): past the {} uAST tags", AST_TAGS.len()),
    }
}

/// `Decl::Visibility`.
pub fn visibility(v: u64) -> Option<&'static str> {
    ["DEFAULT_VISIBILITY", "PUBLIC", "PRIVATE"]
        .get(v as usize)
        .copied()
}

/// `Decl::Linkage`.
pub fn linkage(v: u64) -> Option<&'static str> {
    ["DEFAULT_LINKAGE", "EXTERN", "EXPORT"]
        .get(v as usize)
        .copied()
}

/// `Module::Kind`.
pub fn module_kind(v: u64) -> Option<&'static str> {
    ["DEFAULT_MODULE_KIND", "PROTOTYPE", "IMPLICIT"]
        .get(v as usize)
        .copied()
}

/// `Function::Kind`.
pub fn function_kind(v: u64) -> Option<&'static str> {
    ["PROC", "ITER", "OPERATOR", "LAMBDA"]
        .get(v as usize)
        .copied()
}

/// `uast::Qualifier` (storage kinds, intents; `Function::ReturnIntent` uses the same values).
pub fn qualifier(v: u64) -> Option<&'static str> {
    [
        "UNKNOWN",
        "DEFAULT_INTENT",
        "CONST_INTENT",
        "REF_MAYBE_CONST",
        "VAR",
        "CONST_VAR",
        "CONST_REF",
        "REF",
        "IN",
        "CONST_IN",
        "OUT",
        "INOUT",
        "PARAM",
        "TYPE",
        "TYPE_QUERY",
        "INDEX",
        "FUNCTION",
        "PARENLESS_FUNCTION",
        "MODULE",
        "INIT_RECEIVER",
    ]
    .get(v as usize)
    .copied()
}

/// `uast::BlockStyle`.
pub fn block_style(v: u64) -> Option<&'static str> {
    ["IMPLICIT", "EXPLICIT", "UNNECESSARY_KEYWORD_AND_BLOCK"]
        .get(v as usize)
        .copied()
}

/// `StringLikeLiteral::QuoteStyle`.
pub fn quote_style(v: u64) -> Option<&'static str> {
    ["SINGLE", "DOUBLE", "TRIPLE_SINGLE", "TRIPLE_DOUBLE"]
        .get(v as usize)
        .copied()
}

/// `types::ParamTag`, in `param-classes-list.h` order.
pub fn param_tag(v: u64) -> Option<&'static str> {
    [
        "BoolParam",
        "ComplexParam",
        "EnumParam",
        "IntParam",
        "NoneParam",
        "RealParam",
        "StringParam",
        "UintParam",
    ]
    .get(v as usize)
    .copied()
}

/// `BuilderResult::LocationMapTag` (1-based; 0 is the base map), as listed in
/// `frontend/include/chpl/uast/all-location-maps.h` @05cfdad5.
pub fn location_tag(v: i128) -> Option<&'static str> {
    let names = [
        "BaseMap",
        "DotField",
        "DeclName",
        "IncludeName",
        "LoopHeader",
        "BlockHeader",
        "DeclHeader",
        "ExprParen",
        "CurlyBraces",
    ];
    usize::try_from(v).ok().and_then(|i| names.get(i)).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_numbers_follow_the_class_list_with_its_range_markers() {
        assert_eq!(tag_of("AnonFormal"), 0);
        assert_eq!(tag_of("Identifier"), 18);
        assert_eq!(tag_of("Block"), 39);
        assert_eq!(tag_of("IntLiteral"), 61);
        assert_eq!(tag_of("FnCall"), 71);
        assert_eq!(tag_of("Module"), 87);
        assert_eq!(tag_of("Variable"), 94);
        assert_eq!(tag_of("Record"), 100);
        assert_eq!(AST_TAGS.len(), 106, "NUM_AST_TAGS");
        assert_eq!(ast_tag(37).map(|t| t.1), Some(TagKind::Marker));
        assert!(ast_tag(106).is_none());
        assert!(describe_tag(200).contains("unknown (200)"));
    }
}
