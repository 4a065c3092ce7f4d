package io.github.leanscrape.exposition;

/**
 * Compresses a {@link PooledBody} in one content coding into a body of pooled chunks.
 *
 * @author leanscrape
 */
public interface BodyEncoder {

	/**
	 * Return the content coding of the bodies this encoder makes.
	 * @return the coding
	 */
	ContentCoding coding();

	/**
	 * Compress a body. The input is not released.
	 * @param body the body to compress
	 * @param kind the kind of the compressed body
	 * @param expectedSize the expected compressed size
	 * @return a new body holding the compressed stream
	 */
	PooledBody encode(PooledBody body, BodyKind kind, long expectedSize);

}
