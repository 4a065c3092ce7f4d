package io.github.leanscrape.reuse;

import io.github.leanscrape.exposition.PooledBody;

/**
 * A kept plain body with the version of each of its segments (equal versions, equal
 * bytes), and the share of its bytes in segments as they were in the body before it.
 *
 * @author leanscrape
 */
final class KeptBody {

	final PooledBody body;

	final long[] versions;

	/** From 0 to 1, or -1 when there was no body before it. */
	final double unchangedShare;

	KeptBody(PooledBody body, long[] versions, double unchangedShare) {
		this.body = body;
		this.versions = versions;
		this.unchangedShare = unchangedShare;
	}

	void release() {
		this.body.release();
	}

}
