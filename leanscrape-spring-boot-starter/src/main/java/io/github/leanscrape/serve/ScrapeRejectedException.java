package io.github.leanscrape.serve;

/**
 * Thrown when a scrape cannot be served before its deadline: every rendering slot was
 * busy, scrape bodies held too much memory for a rendering to start, or the rendering it
 * waited for did not finish in time.
 *
 * @author leanscrape
 */
public final class ScrapeRejectedException extends Exception {

	ScrapeRejectedException(String message) {
		// No stack trace: this is an answer to a request, not a fault.
		super(message, null, false, false);
	}

}
