// 64-bit unsigned arithmetic from u32 pairs (x = low word, y = high word): WGSL has no 64-bit integers.

// The full product of two u32.
fn mul32(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu; let a1 = a >> 16u;
  let b0 = b & 0xffffu; let b1 = b >> 16u;
  let p00 = a0 * b0; let p01 = a0 * b1; let p10 = a1 * b0; let p11 = a1 * b1;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  return vec2<u32>((p00 & 0xffffu) | (mid << 16u), p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}

fn add64v(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let lo = a.x + b.x;
  return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

// a × b for 64-bit a, modulo 2^64.
fn mul64x32(a: vec2<u32>, b: u32) -> vec2<u32> {
  let lo = mul32(a.x, b);
  return vec2<u32>(lo.x, lo.y + a.y * b);
}
