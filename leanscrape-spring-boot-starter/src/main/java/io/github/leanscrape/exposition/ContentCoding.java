package io.github.leanscrape.exposition;

/**
 * The content codings a scrape's body can be sent in, besides none.
 *
 * @author leanscrape
 */
public enum ContentCoding {

	/**
	 * gzip (RFC 1952): what every Prometheus asks for.
	 */
	GZIP("gzip"),

	/**
	 * Zstandard (RFC 8878): what Prometheus 3 asks for with its {@code zstd-scrape}
	 * feature; compresses a scrape in a fraction of deflate's time.
	 */
	ZSTD("zstd");

	private final String token;

	ContentCoding(String token) {
		this.token = token;
	}

	/**
	 * Return the coding's name in {@code Accept-Encoding} and {@code Content-Encoding}.
	 * @return the token
	 */
	public String token() {
		return this.token;
	}

}
