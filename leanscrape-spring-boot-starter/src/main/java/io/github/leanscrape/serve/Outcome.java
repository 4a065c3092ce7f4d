package io.github.leanscrape.serve;

/**
 * How a scrape request ended, as the starter's own metrics count it.
 *
 * @author leanscrape
 */
public enum Outcome {

	/** Rendered for this request and sent. */
	OK,

	/** Sent the body of a rendering another request had started. */
	COALESCED,

	/** Sent a body rendered within the cache's time to live. */
	CACHED,

	/** Not served before its deadline: answered 503. */
	REJECTED,

	/** The client went away before the body was written. */
	CLIENT_GONE,

	/** Rendering failed: answered 500. */
	ERROR;

	private final String tag = name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');

	/**
	 * Return the value of the {@code outcome} tag.
	 * @return the tag value
	 */
	public String tag() {
		return this.tag;
	}

}
