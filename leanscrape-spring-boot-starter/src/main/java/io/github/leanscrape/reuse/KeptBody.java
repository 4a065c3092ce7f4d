package io.github.leanscrape.reuse;

import io.github.leanscrape.exposition.PooledBody;

/**
 * A kept plain body with the version of each of its segments (equal versions, equal
 * bytes), and the share of its bytes in segments as they were in the body before it.
 *
 * @param body the body, whose reference the holder releases
 * @param versions the version of each segment
 * @param unchangedShare from 0 to 1, or -1 when there was no body before it
 * @author leanscrape
 */
record KeptBody(PooledBody body, long[] versions, double unchangedShare) {

	void release() {
		this.body.release();
	}

}
