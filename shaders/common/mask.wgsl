// Needs `mask`, 8-bit pixels four per u32 word in raster order (0 background, anything else foreground).
fn isFg(p: u32) -> bool { return ((mask[p >> 2u] >> (8u * (p & 3u))) & 0xffu) != 0u; }
