package io.github.leanscrape.exposition.direct;

import java.util.concurrent.atomic.DoubleAdder;

import io.micrometer.core.instrument.Meter;
import org.jspecify.annotations.Nullable;

/**
 * One series of a family: the meter whose value it shows and its labels, encoded once as
 * the bytes between the sample name and the value ({@code {a="x",b="y"}}, or nothing).
 * <p>
 * Deliberately small: no label strings or sort keys are kept (they are derived from the
 * meter's id when the family is reordered), so the retained cost of a series is this
 * object, its label bytes, and its slots in the family's array and the meter map.
 *
 * @author leanscrape
 */
sealed class Series permits ExemplarSeries, CustomSeries {

	static final long UNKNOWN_CREATED = Long.MIN_VALUE;

	private static final byte[] NO_LABELS = new byte[0];

	final Meter meter;

	final byte[] labels;

	/**
	 * The adder of a Micrometer Prometheus counter, whose sum is its count, or
	 * {@code null} for any other meter. A scrape sums it here rather than asking the
	 * counter, which made the rendering in an application's JVM as fast as in a
	 * benchmark's (one reference fewer to follow into the heap, and no call through the
	 * {@code Counter} interface, are the likely reasons). Every series has the slot,
	 * counters or not: 4 bytes that its object's alignment makes 8.
	 */
	final @Nullable DoubleAdder counterAdder;

	/**
	 * Whether the meter publishes client-side percentiles, so that a scrape must take a
	 * snapshot of it rather than read its count and total.
	 */
	final boolean percentiles;

	volatile boolean removed;

	/**
	 * When the meter of a counter, summary or histogram was created, in milliseconds
	 * since the epoch, as Micrometer's collector reports it (0 for none), or
	 * {@link #UNKNOWN_CREATED} until the first scrape that writes it learns it.
	 */
	volatile long created = UNKNOWN_CREATED;

	Series(Meter meter, byte[] labels, boolean percentiles) {
		this.meter = meter;
		this.labels = (labels.length == 0) ? NO_LABELS : labels;
		this.percentiles = percentiles;
		this.counterAdder = MeterValues.counterAdder(meter);
	}

}
