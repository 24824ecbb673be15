/*
 * hexlens test fixture: the data this cDAC data descriptor describes.
 *
 * Written by the hexlens project for its own tests (not taken from dotnet/runtime).
 * The "target runtime" here is imaginary: a lens catalogue with four types and eight
 * globals. hexlens_blob.c turns the list below into a cDAC binary blob using only
 * the C preprocessor, offsetof and sizeof, as the data-descriptor design asks.
 *
 * tests/cdac_fixtures.rs reads this file back (the DESCRIBE_* lines) and checks that
 * hexlens decodes every name and value it declares from every compiled object, so
 * keep one entry per line.
 */
#ifndef HEXLENS_DESCRIPTOR_H
#define HEXLENS_DESCRIPTOR_H

#include <stddef.h>
#include <stdint.h>

/* ---- the target's own structures ---------------------------------------------- */

struct Lens {
    uint32_t id;
    uint16_t zoom;
    uint8_t flags;
    uint8_t spare;
    uint64_t focus;
    struct Lens *next;
    const char *label;
};

struct Shelf {
    struct Lens *first;
    uint32_t count;
    uint32_t capacity;
};

struct Catalog {
    struct Shelf shelves[3];
    uint32_t generation;
};

extern struct Lens hexlens_lenses[4];
extern struct Shelf hexlens_main_shelf;
extern struct Catalog hexlens_catalog;

/*
 * ---- the descriptor, as one X-macro list ------------------------------------------
 *
 * The caller passes one macro per kind of entry:
 *   BASELINE(name-string)
 *   TYPE(Type)                      starts a type
 *   SIZE(Type, size-or-0)           its size, 0 = indeterminate
 *   FIELD(Type, FieldType, Field, offset)   FieldType may be left empty
 *   END(Type)                       ends the type's field run
 *   LITERAL(Name, Type, value)      a global constant (stored as uint64)
 *   POINTER(Name, address)          a global whose address goes to the pointer data
 */
#define DESCRIBE_RUNTIME(BASELINE, TYPE, SIZE, FIELD, END, LITERAL, POINTER) \
    BASELINE("hexlens/test-baseline") \
    TYPE(Lens) \
    SIZE(Lens, sizeof(struct Lens)) \
    FIELD(Lens, uint32, Id, offsetof(struct Lens, id)) \
    FIELD(Lens, uint16, Zoom, offsetof(struct Lens, zoom)) \
    FIELD(Lens, uint8, Flags, offsetof(struct Lens, flags)) \
    FIELD(Lens, uint64, Focus, offsetof(struct Lens, focus)) \
    FIELD(Lens, pointer, Next, offsetof(struct Lens, next)) \
    FIELD(Lens, pointer, Label, offsetof(struct Lens, label)) \
    END(Lens) \
    TYPE(Shelf) \
    SIZE(Shelf, 0) \
    FIELD(Shelf, pointer, First, offsetof(struct Shelf, first)) \
    FIELD(Shelf, uint32, Count, offsetof(struct Shelf, count)) \
    FIELD(Shelf, , Capacity, offsetof(struct Shelf, capacity)) \
    END(Shelf) \
    TYPE(Handle) \
    SIZE(Handle, sizeof(void *)) \
    END(Handle) \
    TYPE(Catalog) \
    SIZE(Catalog, sizeof(struct Catalog)) \
    FIELD(Catalog, uint32, Generation, offsetof(struct Catalog, generation)) \
    END(Catalog) \
    LITERAL(LensCount, uint32, 4) \
    LITERAL(MaxZoom, uint16, 1024) \
    LITERAL(Signature, uint64, 0xFEEDFACECAFEBEEFull) \
    LITERAL(ColorEnabled, uint8, 1) \
    LITERAL(Bias, int64, (uint64_t)-2) \
    POINTER(LensTable, &hexlens_lenses) \
    POINTER(MainShelf, &hexlens_main_shelf) \
    POINTER(ActiveCatalog, &hexlens_catalog)

#endif
