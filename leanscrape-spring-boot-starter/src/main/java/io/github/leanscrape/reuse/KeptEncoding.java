package io.github.leanscrape.reuse;

import io.github.leanscrape.compression.EncodedBody;

/**
 * A kind's last form by segment in one coding, with the versions of the segments it
 * encodes: what the next body's unchanged segments are copied from.
 *
 * @param encoded the form
 * @param versions the version of each segment it encodes
 * @author leanscrape
 */
record KeptEncoding(EncodedBody encoded, long[] versions) {

	void release() {
		this.encoded.body().release();
	}

}
