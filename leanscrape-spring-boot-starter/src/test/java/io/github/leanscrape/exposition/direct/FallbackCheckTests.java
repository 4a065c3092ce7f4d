package io.github.leanscrape.exposition.direct;

import java.util.Properties;
import java.util.Set;

import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.reference.ReferenceRenderer;
import io.github.leanscrape.support.FallbackCheck;
import io.github.leanscrape.support.FrozenClock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The check that every CI cell runs on a plain application's scrape
 * ({@link FallbackCheck}) fails on a whole-scrape fallback and on a family fallback of an
 * unexpected reason, and passes a family fallback it was told to expect.
 */
class FallbackCheckTests {

	private static final Properties PROPERTIES = PrometheusConfig.DEFAULT.prometheusProperties();

	private final ChunkPool pool = new ChunkPool(4096, 1 << 20);

	@Test
	void passesAScrapeWithoutFallbacks() throws Exception {
		PrometheusMeterRegistry registry = registry();
		Counter.builder("requests").register(registry).increment();
		DirectRenderer renderer = scrapedRenderer(registry);
		assertThatNoException().isThrownBy(() -> FallbackCheck.assertOnlyExpected(renderer.cardinality(), Set.of()));
	}

	@Test
	void failsOnAFamilyFallbackNotExpected() throws Exception {
		PrometheusMeterRegistry registry = registry();
		Counter.builder("requests").register(registry).increment();
		// A base unit with a slash: a_b_c_kb/s, a name client_java escapes.
		Counter.builder("a.b.c").baseUnit("kb/s").register(registry).increment();
		DirectRenderer renderer = scrapedRenderer(registry);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> FallbackCheck.assertOnlyExpected(renderer.cardinality(), Set.of()))
			.withMessageContaining(FallbackReason.NAME_ESCAPED.text());
		assertThatNoException().isThrownBy(() -> FallbackCheck.assertOnlyExpected(renderer.cardinality(),
				Set.of(FallbackReason.NAME_ESCAPED.text())));
	}

	@Test
	void failsOnAWholeScrapeFallback() throws Exception {
		PrometheusMeterRegistry registry = registry();
		Counter.builder("requests").register(registry).increment();
		// What a Micrometer that moved what the starter reads looks like.
		DirectRenderer renderer = new DirectRenderer(registry, PrometheusConfig.DEFAULT, PROPERTIES,
				new ReferenceRenderer(registry.getPrometheusRegistry(), PROPERTIES), Long.MAX_VALUE,
				MicrometerInternals.unreadable(), new ExemplarLocator(), true);
		scrape(renderer);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> FallbackCheck.assertOnlyExpected(renderer.cardinality(), Set.of()))
			.withMessageContaining(FallbackReason.INTERNALS_NOT_VISIBLE.text());
	}

	private DirectRenderer scrapedRenderer(PrometheusMeterRegistry registry) throws Exception {
		DirectRenderer renderer = new DirectRenderer(registry, PrometheusConfig.DEFAULT, PROPERTIES,
				new ReferenceRenderer(registry.getPrometheusRegistry(), PROPERTIES), Long.MAX_VALUE);
		scrape(renderer);
		return renderer;
	}

	private void scrape(DirectRenderer renderer) throws Exception {
		PrometheusOutputFormat format = PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100;
		ChunkedOutput output = new ChunkedOutput(this.pool, BodyKind.of(format, null), 0);
		renderer.render(format, null, output);
		output.discard();
	}

	private static PrometheusMeterRegistry registry() {
		return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new PrometheusRegistry(), new FrozenClock());
	}

}
