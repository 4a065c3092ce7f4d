package io.github.leanscrape.serve;

import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * A scrape the endpoint answered, served once what the operation cannot see (the timeout,
 * the accepted encodings) is known, and released once its response is done.
 *
 * @author leanscrape
 */
public final class PendingScrape {

	private final Scraper scraper;

	private final PrometheusOutputFormat format;

	private final @Nullable Set<String> includedNames;

	private @Nullable Served result;

	private boolean released;

	/**
	 * Create a scrape to be served later.
	 * @param scraper the scraper that serves it
	 * @param format the negotiated format
	 * @param includedNames the families to include, or {@code null} for all
	 */
	public PendingScrape(Scraper scraper, PrometheusOutputFormat format, @Nullable Set<String> includedNames) {
		this.scraper = scraper;
		this.format = format;
		this.includedNames = includedNames;
	}

	/**
	 * Return the negotiated format.
	 * @return the format
	 */
	public PrometheusOutputFormat format() {
		return this.format;
	}

	/**
	 * Serve the scrape, or return the result of an earlier call.
	 * @param deadlineNanos the {@link System#nanoTime()} by which the body must be ready
	 * @return the result, whose body this object releases
	 * @throws ScrapeRejectedException when the deadline passes first
	 */
	public Served resolve(long deadlineNanos) throws ScrapeRejectedException {
		synchronized (this) {
			assertNotReleased();
			if (this.result != null) {
				return this.result;
			}
		}
		// Not under the lock: release() may run on an event loop and must never wait.
		Served served = this.scraper.scrape(this.format, this.includedNames, deadlineNanos);
		synchronized (this) {
			Served earlier = this.result;
			if (this.released || earlier != null) {
				served.body().release();
				assertNotReleased();
				// Not released, so another call resolved it first.
				return Objects.requireNonNull(earlier);
			}
			this.result = served;
			return served;
		}
	}

	private void assertNotReleased() {
		if (this.released) {
			throw new IllegalStateException("Scrape already released");
		}
	}

	/**
	 * Give the body back; safe to call more than once, and before the scrape is resolved.
	 */
	public void release() {
		Served resolved;
		synchronized (this) {
			if (this.released) {
				return;
			}
			this.released = true;
			resolved = this.result;
		}
		if (resolved != null) {
			resolved.body().release();
		}
	}

}
