// The last fields of a features shader's Params: the results' size and the filter (see common/record.wgsl's
// keep() and src/features/FeaturesPath.ts's filterParams()). Included inside the struct.
  maxResults: u32,   // records the results buffer holds
  minArea: u32,
  maxArea: u32,
  minSide: u32,      // of the bounding box
  maxSide: u32,
  maxAspect: f32,    // longer over shorter box side
  dropBorder: u32,   // 1: drop components touching the frame border
