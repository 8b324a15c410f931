/**
 * The tracker's tuned constants, one line each: value, unit and meaning. Each was chosen on the tracking evaluation
 * (bench/evaluation/trackEval.ts, held-out seeds); why, and the replays that decided it, are in the decision record it links to
 * (docs/decisions/tracking.md and counting.md, by the constant's name).
 */

// Association and lifecycle (Tracker.ts).
/** Earth mover's distance (bins) between a lost track's histogram and a blob's past which it refuses the blob. docs/decisions/tracking.md#lookapart */
export const lookApart = 6;
/** Share of a track's predicted box a blob must hold (more than any other blob) for the track to join its group. docs/decisions/tracking.md#groupshare */
export const groupShare = 0.3;
/** Frames a second the motion model's acceleration stands for; other rates scale the process noise to match. docs/decisions/tracking.md#modelrate */
export const modelRate = 30;
/** Share of the predicted box's narrower side a non-overlapping blob may lie from it for a seen track. docs/decisions/tracking.md#nearshare */
export const nearShare = 0.25;
/** How fast the stream's frame-interval estimate follows its frames (an exponential average over ~10). docs/decisions/tracking.md#intervalrate */
export const intervalRate = 0.1;

// Motion and measurement (Track.ts).
/** Own observations a track keeps for its coasting velocity (a second's at up to 60 frames/s). docs/decisions/tracking.md#observed */
export const observed = 60;
/** Own observations needed before a coasting velocity is taken from them. docs/decisions/tracking.md#observed */
export const observedEnough = 5;
/** Seconds of the newest own observations the coasting velocity (Theil–Sen) is taken over. docs/decisions/tracking.md#observedfor */
export const observedFor = 1;
/** Share a track's size may shrink a frame (at shrinkRate frames/s, compounded) before its blob is taken for a piece. docs/decisions/tracking.md#shrinkperframe */
export const shrinkPerFrame = 0.08;
/** Frames a second shrinkPerFrame stands for. docs/decisions/tracking.md#shrinkperframe */
export const shrinkRate = 30;
/** How fast a track's average histogram follows its own blobs (per observation). docs/decisions/tracking.md#appearancerate */
export const appearanceRate = 0.1;

// Blob stages: pieces joined (PieceJoiner.ts) and the size floor (SizeFloor.ts).
/** Tolerance on two pieces' ends across their gap, as a share of their shared extent. docs/decisions/tracking.md#extentshare */
export const extentShare = 0.4;
/** ...and at least this many pixels. docs/decisions/tracking.md#extentshare */
export const minTolerance = 2;
/** Box areas of confirmed tracks' own blobs the size floor remembers. docs/decisions/tracking.md#remembered */
export const remembered = 512;
/** Areas remembered before the size floor applies (about a second of one object). docs/decisions/tracking.md#remembered */
export const needed = 32;
/** How far from a track's predicted box a small blob lies near it, in shares of the box's size a side. docs/decisions/tracking.md#reach */
export const reach = 1;
/** A blob under the floor is a piece of a track near it only under this share of that track's box. docs/decisions/tracking.md#floorpieceshare */
export const floorPieceShare = 0.5;

// Groups (placeMembers.ts, pullIntoGroup.ts, partOfTracked.ts, nodes/track/track.ts).
/** A bin is a member's where its average holds this share of the members' averages summed in that bin. docs/decisions/tracking.md#ownbin */
export const ownBin = 0.8;
/** A member is placed only where the blob shows at least this share of the pixels it showed alone in its bins... docs/decisions/tracking.md#seenshare */
export const seenShare = 0.85;
/** ...and at most this share. docs/decisions/tracking.md#seenshare */
export const seenMost = 1.2;
/** ...and where its own bins hold this share of its histogram. docs/decisions/tracking.md#seenshare */
export const ownShare = 0.5;
/** Sizes a second by which a member's estimate is drawn back into its group's blob. docs/decisions/tracking.md#pullrate */
export const pullRate = 0.9;
/** Sizes in all a member may be drawn back since it last had a blob of its own. docs/decisions/tracking.md#pulllimit */
export const pullLimit = 0.5;
/** Share of a blob inside a confirmed, seen track's predicted box from which it is a piece of that object (no new track). docs/decisions/tracking.md#insideshare */
export const insideShare = 0.75;
/** Share of a member's estimated box inside its group's blob for seenTracks to report it. docs/decisions/tracking.md#memberinside */
export const memberInside = 0.75;

// Counting lines (src/count/: CountingLines.ts, lineTurn.ts, inheritSides.ts).
/** Seconds lost after which a found-again track, and seconds seen within which a new one, holds back a crossing. docs/decisions/counting.md#holdafter */
export const holdAfter = 0.6;
/** Seconds seen within which a group member holds back a crossing shown by its group's blob. docs/decisions/counting.md#wholeholdunder */
export const wholeHoldUnder = 1.5;
/** Own blobs in a row with the centre past a line for that to count as a side. docs/decisions/counting.md#centrefor */
export const centreFor = 20;
/** ...with the centre past by this share of the box's half-extent across the line. docs/decisions/counting.md#centrefor */
export const centreClear = 0.25;
/** Own blobs a held crossing waits for at 30 frames/s (fewer at slower rates). docs/decisions/counting.md#holdfor */
export const holdFor = 8;
/** Share of its speed a found-again track may move back across the line at and still count its crossing. docs/decisions/counting.md#holdfor */
export const backShare = 0.3;
/** A track born over a line counts where it walks off at this share of its speed across the line... docs/decisions/counting.md#awayshare */
export const awayShare = 0.5;
/** ...and at least this many heights a second. docs/decisions/counting.md#awayshare */
export const awaySpeed = 0.3;
/** Heights a second toward a line that count as walking to it (as fast away is walking away). docs/decisions/counting.md#towardspeed */
export const towardSpeed = 0.25;
/** Heights a track seen again must walk away from where it came out, within awayWithin seconds, to count a turn. docs/decisions/counting.md#awaystep */
export const awayStep = 0.25;
/** Seconds for awayStep. docs/decisions/counting.md#awaystep */
export const awayWithin = 1;
/** Share of a new track's blob inside another's recent box from which it came apart from that one. docs/decisions/counting.md#splitshare */
export const splitShare = 0.3;
/** Seconds since the parent counted a crossing within which a split takes that line's side. docs/decisions/counting.md#inheritwithin */
export const inheritWithin = 2;
/** Newest own observations looked through for where a new track came apart from. docs/decisions/counting.md#splitshare */
export const splitRecent = 10;
