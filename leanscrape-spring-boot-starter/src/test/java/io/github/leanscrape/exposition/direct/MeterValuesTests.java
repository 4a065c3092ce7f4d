package io.github.leanscrape.exposition.direct;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How {@link MeterValues} reads a counter's count: through the adder of a Micrometer
 * Prometheus counter, which must be the counter's own, and through the counter for any
 * other.
 */
class MeterValuesTests {

	private static final byte[] LABELS = new byte[0];

	@Test
	void aPrometheusCounterIsReadThroughItsOwnAdder() {
		Counter counter = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT).counter("orders");
		Series series = new Series(counter, LABELS, false);
		assertThat(series.counterAdder).isNotNull();
		counter.increment(2.5);
		assertThat(MeterValues.counter(series)).isEqualTo(counter.count()).isEqualTo(2.5);
		// The adder the counter counts with, not a copy: later increments show.
		counter.increment(4);
		assertThat(MeterValues.counter(series)).isEqualTo(counter.count()).isEqualTo(6.5);
	}

	@Test
	void anyOtherCounterIsReadThroughTheCounter() {
		Counter counter = new SimpleMeterRegistry().counter("orders");
		Series series = new Series(counter, LABELS, false);
		assertThat(series.counterAdder).isNull();
		counter.increment(3);
		assertThat(MeterValues.counter(series)).isEqualTo(3);
	}

	@Test
	void aMeterOtherThanACounterHasNoAdder() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		assertThat(MeterValues.counterAdder(registry.timer("checkout"))).isNull();
		assertThat(MeterValues.counterAdder(registry.summary("payload"))).isNull();
	}

}
