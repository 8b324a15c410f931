// Needs `gray`, 8-bit pixels four per u32 word in raster order.
fn grayAt(p: u32) -> u32 { return (gray[p >> 2u] >> (8u * (p & 3u))) & 0xffu; }
