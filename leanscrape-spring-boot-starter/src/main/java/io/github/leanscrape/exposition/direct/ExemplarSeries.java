package io.github.leanscrape.exposition.direct;

import io.micrometer.core.instrument.Meter;

/**
 * A series whose meter samples exemplars: the slots they are read from come with it. Only
 * meters of a registry with a span context have them, so that series without exemplars
 * keep their size.
 *
 * @author leanscrape
 */
final class ExemplarSeries extends Series {

	final ExemplarSlots exemplars;

	ExemplarSeries(Meter meter, byte[] labels, boolean percentiles, ExemplarSlots exemplars) {
		super(meter, labels, percentiles);
		this.exemplars = exemplars;
	}

}
