/*
 * hexlens test fixture: builds a cDAC data-descriptor blob from hexlens_descriptor.h.
 *
 * Written by the hexlens project for its own tests, following the blob layout in
 * specs/cdac-data-descriptor.md and specs/notes/cdac-layout.md. Everything is made
 * at compile time from offsetof/sizeof, so the object file holds the blob as plain
 * bytes (no relocations inside it); the addresses of the pointer globals live in a
 * separate array, HexlensPointerData.
 *
 * Two layouts, chosen with a macro:
 *   default              the runtime's: magic written as a uint64, the directory starts
 *                        with FlagsAndBaselineStart (PlatformFlags, then BaselineName),
 *                        the names pool ends with an extra NUL.
 *   -DHX_SAMPLE_LAYOUT   cdac-build-tool's sample: magic written as the string
 *                        "DACBLOB", the directory starts with BaselineStart (no
 *                        PlatformFlags), no extra NUL.
 */
#include "hexlens_descriptor.h"

/* The target data the pointer globals point at. */
struct Lens hexlens_lenses[4];
struct Shelf hexlens_main_shelf;
struct Catalog hexlens_catalog;

#define HX_NONE(...)

/* ---- spec records ------------------------------------------------------------------ */

struct HxTypeSpec {
    uint32_t Name;
    uint32_t Fields;
    uint16_t Size;
};

struct HxFieldSpec {
    uint32_t Name;
    uint32_t TypeName;
    uint16_t FieldOffset;
};

struct HxGlobalLiteralSpec {
    uint32_t Name;
    uint32_t TypeName;
    uint64_t Value;
};

struct HxGlobalPointerSpec {
    uint32_t Name;
    uint32_t PointerDataIndex;
};

/* ---- names pool ---------------------------------------------------------------------
 * One char array per name, as long as the name and its NUL: the offset of a member is
 * the offset of that name in the pool. The first byte is the reserved empty name. */

#define POOL_BASELINE(s) char baseline[sizeof(s)];
#define POOL_TYPE(t) char type_##t[sizeof(#t)];
#define POOL_FIELD(t, ft, f, off) char field_##t##_##f[sizeof(#f)]; char fieldtype_##t##_##f[sizeof(#ft)];
#define POOL_LITERAL(n, ty, v) char global_##n[sizeof(#n)]; char globaltype_##n[sizeof(#ty)];
#define POOL_POINTER(n, addr) char global_##n[sizeof(#n)];

struct HxNameOffsets {
    char reserved_empty;
    DESCRIBE_RUNTIME(POOL_BASELINE, POOL_TYPE, HX_NONE, POOL_FIELD, HX_NONE, POOL_LITERAL, POOL_POINTER)
#ifndef HX_SAMPLE_LAYOUT
    char trailing_nul;
#endif
};

#define NAME_OF(member) ((uint32_t)offsetof(struct HxNameOffsets, member))

#define TEXT_BASELINE(s) s "\0"
#define TEXT_TYPE(t) #t "\0"
#define TEXT_FIELD(t, ft, f, off) #f "\0" #ft "\0"
#define TEXT_LITERAL(n, ty, v) #n "\0" #ty "\0"
#define TEXT_POINTER(n, addr) #n "\0"

/* ---- field pool indices -------------------------------------------------------------
 * One char per field-pool entry, each type's run in its own nested struct: the offset
 * of the nested struct is the index of the type's first field. Entry 0 is a
 * placeholder, and every run ends with an end marker. */

#define INDEX_TYPE(t) struct {
#define INDEX_FIELD(t, ft, f, off) char f_##f;
#define INDEX_END(t) char end_marker; } run_##t;

struct HxFieldIndex {
    char placeholder;
    DESCRIBE_RUNTIME(HX_NONE, INDEX_TYPE, HX_NONE, INDEX_FIELD, INDEX_END, HX_NONE, HX_NONE)
};

/* ---- pointer data indices (entry 0 is a placeholder) ------------------------------ */

#define INDEX_POINTER(n, addr) char ptr_##n;

struct HxPointerIndex {
    char placeholder;
    DESCRIBE_RUNTIME(HX_NONE, HX_NONE, HX_NONE, HX_NONE, HX_NONE, HX_NONE, INDEX_POINTER)
};

/* ---- counts ------------------------------------------------------------------------ */

#define COUNT_ONE(...) + 1

enum {
    HX_TYPE_COUNT = 0 DESCRIBE_RUNTIME(HX_NONE, COUNT_ONE, HX_NONE, HX_NONE, HX_NONE, HX_NONE, HX_NONE),
    HX_FIELD_POOL_COUNT = sizeof(struct HxFieldIndex),
    HX_LITERAL_COUNT = 0 DESCRIBE_RUNTIME(HX_NONE, HX_NONE, HX_NONE, HX_NONE, HX_NONE, COUNT_ONE, HX_NONE),
    HX_POINTER_COUNT = 0 DESCRIBE_RUNTIME(HX_NONE, HX_NONE, HX_NONE, HX_NONE, HX_NONE, HX_NONE, COUNT_ONE),
};

/* ---- the blob ------------------------------------------------------------------------ */

struct HxDirectory {
    uint32_t FirstStart; /* FlagsAndBaselineStart, or BaselineStart in the sample layout */
    uint32_t TypesStart;
    uint32_t FieldPoolStart;
    uint32_t GlobalLiteralValuesStart;
    uint32_t GlobalPointersStart;
    uint32_t NamesStart;
    uint32_t TypeCount;
    uint32_t FieldPoolCount;
    uint32_t GlobalLiteralValuesCount;
    uint32_t GlobalPointerValuesCount;
    uint32_t NamesPoolCount;
    uint8_t TypeSpecSize;
    uint8_t FieldSpecSize;
    uint8_t GlobalLiteralSpecSize;
    uint8_t GlobalPointerSpecSize;
};

struct HxBlob {
    struct HxDirectory Directory;
#ifndef HX_SAMPLE_LAYOUT
    uint32_t PlatformFlags;
#endif
    uint32_t BaselineName;
    struct HxTypeSpec Types[HX_TYPE_COUNT];
    struct HxFieldSpec FieldPool[HX_FIELD_POOL_COUNT];
    struct HxGlobalLiteralSpec GlobalLiteralValues[HX_LITERAL_COUNT];
    struct HxGlobalPointerSpec GlobalPointerValues[HX_POINTER_COUNT];
    uint8_t NamesPool[sizeof(struct HxNameOffsets)];
    uint8_t EndMagic[4];
};

struct HxMagicAndBlob {
#ifdef HX_SAMPLE_LAYOUT
    char magic[8];
#else
    uint64_t magic;
#endif
    struct HxBlob Blob;
};

#define SPEC_TYPE(t) { .Name = NAME_OF(type_##t), .Fields = (uint32_t)offsetof(struct HxFieldIndex, run_##t),
#define SPEC_SIZE(t, size) .Size = (uint16_t)(size) },
#define SPEC_FIELD(t, ft, f, off) \
    { .Name = NAME_OF(field_##t##_##f), .TypeName = NAME_OF(fieldtype_##t##_##f), .FieldOffset = (uint16_t)(off) },
#define SPEC_END(t) { 0 },
#define SPEC_LITERAL(n, ty, v) { .Name = NAME_OF(global_##n), .TypeName = NAME_OF(globaltype_##n), .Value = (uint64_t)(v) },
#define SPEC_POINTER(n, addr) \
    { .Name = NAME_OF(global_##n), .PointerDataIndex = (uint32_t)offsetof(struct HxPointerIndex, ptr_##n) },

const struct HxMagicAndBlob HexlensDataDescriptor = {
#ifdef HX_SAMPLE_LAYOUT
    .magic = "DACBLOB",
#else
    .magic = 0x00424F4C42434144ull, /* "DACBLOB\0" when stored little-endian */
#endif
    .Blob = {
        .Directory = {
#ifdef HX_SAMPLE_LAYOUT
            .FirstStart = offsetof(struct HxBlob, BaselineName),
#else
            .FirstStart = offsetof(struct HxBlob, PlatformFlags),
#endif
            .TypesStart = offsetof(struct HxBlob, Types),
            .FieldPoolStart = offsetof(struct HxBlob, FieldPool),
            .GlobalLiteralValuesStart = offsetof(struct HxBlob, GlobalLiteralValues),
            .GlobalPointersStart = offsetof(struct HxBlob, GlobalPointerValues),
            .NamesStart = offsetof(struct HxBlob, NamesPool),
            .TypeCount = HX_TYPE_COUNT,
            .FieldPoolCount = HX_FIELD_POOL_COUNT,
            .GlobalLiteralValuesCount = HX_LITERAL_COUNT,
            .GlobalPointerValuesCount = HX_POINTER_COUNT,
            .NamesPoolCount = sizeof(struct HxNameOffsets),
            .TypeSpecSize = sizeof(struct HxTypeSpec),
            .FieldSpecSize = sizeof(struct HxFieldSpec),
            .GlobalLiteralSpecSize = sizeof(struct HxGlobalLiteralSpec),
            .GlobalPointerSpecSize = sizeof(struct HxGlobalPointerSpec),
        },
#ifndef HX_SAMPLE_LAYOUT
        /* bit 0 always set; bit 1 set on 32-bit targets */
        .PlatformFlags = (sizeof(void *) == 4 ? 0x2u : 0x0u) | 0x1u,
#endif
        .BaselineName = NAME_OF(baseline),
        .Types = { DESCRIBE_RUNTIME(HX_NONE, SPEC_TYPE, SPEC_SIZE, HX_NONE, HX_NONE, HX_NONE, HX_NONE) },
        .FieldPool = { { 0 }, DESCRIBE_RUNTIME(HX_NONE, HX_NONE, HX_NONE, SPEC_FIELD, SPEC_END, HX_NONE, HX_NONE) },
        .GlobalLiteralValues = { DESCRIBE_RUNTIME(HX_NONE, HX_NONE, HX_NONE, HX_NONE, HX_NONE, SPEC_LITERAL, HX_NONE) },
        .GlobalPointerValues = { DESCRIBE_RUNTIME(HX_NONE, HX_NONE, HX_NONE, HX_NONE, HX_NONE, HX_NONE, SPEC_POINTER) },
        /* The pool starts with the reserved empty name. The runtime layout's extra
         * trailing NUL is the string literal's own terminator; the sample layout's
         * array has no room for it, so C drops it. */
        .NamesPool = "\0" DESCRIBE_RUNTIME(TEXT_BASELINE, TEXT_TYPE, HX_NONE, TEXT_FIELD, HX_NONE, TEXT_LITERAL,
                                           TEXT_POINTER),
        .EndMagic = { 0x01, 0x02, 0x03, 0x04 },
    },
};

/* The pointer data the GlobalPointerSpec indices refer to (entry 0 is a placeholder). */
#define DATA_POINTER(n, addr) (const void *)(addr),
const void *const HexlensPointerData[] = {
    0,
    DESCRIBE_RUNTIME(HX_NONE, HX_NONE, HX_NONE, HX_NONE, HX_NONE, HX_NONE, DATA_POINTER)
};

_Static_assert(sizeof(HexlensDataDescriptor.Blob.NamesPool) == sizeof(struct HxNameOffsets),
               "names pool size");
_Static_assert(HX_FIELD_POOL_COUNT == 1 + 6 + 1 + 3 + 1 + 0 + 1 + 1 + 1, "field pool entries");
