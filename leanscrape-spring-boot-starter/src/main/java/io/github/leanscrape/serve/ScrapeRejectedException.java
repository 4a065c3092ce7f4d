package io.github.leanscrape.serve;

/**
 * Thrown when a scrape cannot be served before its deadline: no rendering slot or memory
 * came free in time, or the rendering it joined did not finish.
 *
 * @author leanscrape
 */
public final class ScrapeRejectedException extends Exception {

	ScrapeRejectedException(String message) {
		// No stack trace: this is an answer to a request, not a fault.
		super(message, null, false, false);
	}

}
