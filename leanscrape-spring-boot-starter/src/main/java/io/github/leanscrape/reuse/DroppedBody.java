package io.github.leanscrape.reuse;

/**
 * What is left of a kind's last body once it was dropped to make room for a rendering of
 * another kind: the gzip form kept to stand in for it, where the segments of the body
 * that form encodes ended, and what counts for keeping the kind's bodies.
 *
 * @author leanscrape
 */
final class DroppedBody {

	/** The gzip form that stands in, held in the kind's gzip slot. */
	final KeptEncoding gzip;

	/** Where the segments of the plain body it encodes end. */
	final long[] segmentEnds;

	final double unchangedShare;

	final boolean used;

	DroppedBody(KeptEncoding gzip, long[] segmentEnds, KeptBody plain) {
		this.gzip = gzip;
		this.segmentEnds = segmentEnds;
		this.unchangedShare = plain.unchangedShare;
		this.used = plain.used;
	}

}
