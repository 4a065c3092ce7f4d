package io.github.leanscrape.reuse;

import io.github.leanscrape.compression.EncodedBody;

/**
 * The last form by segment of a kind in one coding, with the versions of the segments it
 * encodes: what the next body's unchanged segments are copied from.
 *
 * @author leanscrape
 */
final class KeptEncoding {

	final EncodedBody encoded;

	final long[] versions;

	KeptEncoding(EncodedBody encoded, long[] versions) {
		this.encoded = encoded;
		this.versions = versions;
	}

	void release() {
		this.encoded.release();
	}

}
