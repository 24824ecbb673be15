use super::*;

fn fixture(name: &str) -> Vec<u8> {
    let p = format!(
        "{}/../../tests/fixtures/embedded/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

#[test]
fn the_scan_finds_the_same_containers_whatever_its_chunk_size() {
    for name in ["effect.fxo", "every_format.bin", "damaged.bin"] {
        let data = fixture(name);
        let whole = scan(&data.as_slice());
        assert!(!whole.found.is_empty(), "{name}");
        // Chunks shorter than a signature, at odd sizes, so signatures and
        // headers straddle every boundary.
        for chunk in [1, 2, 3, 7, 25, 26, 64, 1000, 4093] {
            assert_eq!(
                scan_in_chunks(&data.as_slice(), chunk),
                whole,
                "{name}, chunk {chunk}"
            );
        }
    }
}

#[test]
fn a_signature_in_the_last_bytes_of_a_chunk_is_found() {
    let dxbc = fixture("effect.fxo");
    let s = scan(&dxbc.as_slice());
    let first = s.found[0];
    let c = &dxbc[first.offset as usize..(first.offset + first.len) as usize];
    // The container starts one byte before a chunk boundary.
    for before in [CHUNK - 1, CHUNK - 3, CHUNK] {
        let mut data = vec![0x90u8; before];
        data.extend_from_slice(c);
        let got = scan(&data.as_slice()).found;
        assert_eq!(got.len(), 1, "{before}");
        assert_eq!((got[0].offset, got[0].len), (before as u64, first.len));
    }
}

#[test]
fn the_scan_stops_at_its_limit() {
    // A run of the smallest container there is (an empty DXBC header), many
    // more times than the scan keeps.
    let mut one = b"DXBC".to_vec();
    one.extend_from_slice(&[0; 16]);
    one.extend_from_slice(&1u16.to_le_bytes());
    one.extend_from_slice(&0u16.to_le_bytes());
    one.extend_from_slice(&32u32.to_le_bytes());
    one.extend_from_slice(&0u32.to_le_bytes());
    let data = one.repeat(MAX_FOUND + 5);
    let s = scan(&data.as_slice());
    assert_eq!(s.found.len(), MAX_FOUND);
    assert!(s.truncated);
    assert_eq!(s.found[7].offset, 7 * 32);
}
