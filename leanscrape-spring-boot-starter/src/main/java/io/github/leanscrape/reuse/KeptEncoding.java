package io.github.leanscrape.reuse;

import io.github.leanscrape.compression.EncodedBody;
import org.jspecify.annotations.Nullable;

/**
 * The last compressed form of a kind in one coding, with the versions of the segments it
 * encodes; or, where it was compressed whole, only what was measured.
 *
 * @author leanscrape
 */
final class KeptEncoding {

	final @Nullable EncodedBody encoded;

	final long[] versions;

	/** The share of the body that could be copied when last measured, or -1. */
	final double measuredShare;

	/** How many bodies in a row were compressed whole for too little to copy. */
	final int wholeStreak;

	KeptEncoding(@Nullable EncodedBody encoded, long[] versions, double measuredShare, int wholeStreak) {
		this.encoded = encoded;
		this.versions = versions;
		this.measuredShare = measuredShare;
		this.wholeStreak = wholeStreak;
	}

	void release() {
		if (this.encoded != null) {
			this.encoded.release();
		}
	}

}
