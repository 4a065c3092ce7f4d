package io.github.leanscrape.exposition.direct;

import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;

/**
 * A series of a custom meter: one of its measurements, in the family of its statistic. A
 * custom meter may put two series in one family ({@code TOTAL} and {@code TOTAL_TIME}),
 * so each knows its family.
 *
 * @author leanscrape
 */
final class CustomSeries extends Series {

	final Measurement measurement;

	final Family family;

	CustomSeries(Meter meter, byte[] labels, Measurement measurement, Family family) {
		super(meter, labels, false);
		this.measurement = measurement;
		this.family = family;
	}

}
