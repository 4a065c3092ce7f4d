package io.github.leanscrape.serve;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Turns the scrape timeout header Prometheus sends into the deadline of a scrape: capped
 * at a maximum, and the default when missing or not a positive finite number, so that a
 * scrape is never refused for a bad header and never waits without bound.
 *
 * @author leanscrape
 */
public final class Deadlines {

	/** The header Prometheus sends with its scrape timeout. */
	public static final String HEADER = "X-Prometheus-Scrape-Timeout-Seconds";

	private final long defaultNanos;

	private final long maxNanos;

	/**
	 * Create a new instance.
	 * @param defaultTimeout the timeout of a scrape without a usable header
	 * @param maxTimeout the longest timeout a header may ask for
	 */
	public Deadlines(Duration defaultTimeout, Duration maxTimeout) {
		this.defaultNanos = Math.max(1, defaultTimeout.toNanos());
		this.maxNanos = Math.max(this.defaultNanos, maxTimeout.toNanos());
	}

	/**
	 * Return the deadline of a scrape.
	 * @param header the value of the timeout header, or {@code null}
	 * @param nowNanos the current {@link System#nanoTime()}
	 * @return the deadline, in {@link System#nanoTime()} terms
	 */
	public long deadline(@Nullable String header, long nowNanos) {
		return nowNanos + timeoutNanos(header);
	}

	private long timeoutNanos(@Nullable String header) {
		if (header == null || header.isBlank() || header.length() > 32) {
			return this.defaultNanos;
		}
		double seconds;
		try {
			seconds = Double.parseDouble(header.trim());
		}
		catch (NumberFormatException ex) {
			return this.defaultNanos;
		}
		if (!(seconds > 0) || Double.isInfinite(seconds)) {
			return this.defaultNanos;
		}
		double nanos = seconds * 1e9;
		return (nanos >= this.maxNanos) ? this.maxNanos : Math.max(1, (long) nanos);
	}

}
