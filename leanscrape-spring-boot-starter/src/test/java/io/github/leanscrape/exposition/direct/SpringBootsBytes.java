package io.github.leanscrape.exposition.direct;

import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.Set;

import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.support.ProtobufDump;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the direct path's tests compare against: the body Spring Boot's endpoint sends for
 * the same registry, format and filter.
 */
final class SpringBootsBytes {

	private SpringBootsBytes() {
	}

	/**
	 * Render a scrape directly and assert that its bytes are Spring Boot's.
	 * @param renderer the direct renderer
	 * @param boot Spring Boot's endpoint on the same registry
	 * @param pool the pool to render into, which must get every chunk back
	 * @param format the format
	 * @param names the name filter, or {@code null}
	 * @throws Exception when rendering fails
	 */
	static void assertSame(DirectRenderer renderer, PrometheusScrapeEndpoint boot, ChunkPool pool,
			PrometheusOutputFormat format, @Nullable Set<String> names) throws Exception {
		ChunkedOutput output = new ChunkedOutput(pool, BodyKind.of(format, names), 0);
		renderer.render(format, names, output);
		PooledBody body = output.toBody();
		try {
			assertSameBytes(body.toByteArray(), boot.scrape(format, names).getBody(), format, names);
		}
		finally {
			body.release();
		}
		assertThat(pool.chunksInUse()).isZero();
	}

	/**
	 * Assert that a body is Spring Boot's, showing the difference readably: as text, or
	 * protobuf field by field.
	 * @param actual the body written
	 * @param expected Spring Boot's body
	 * @param format their format
	 * @param names the name filter, or {@code null}
	 */
	static void assertSameBytes(byte[] actual, byte[] expected, PrometheusOutputFormat format,
			@Nullable Set<String> names) {
		if (format == PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF) {
			assertThat(ProtobufDump.delimited(actual)).as(format + " " + names)
				.isEqualTo(ProtobufDump.delimited(expected));
		}
		else {
			assertThat(new String(actual, StandardCharsets.UTF_8)).as(format + " " + names)
				.isEqualTo(new String(expected, StandardCharsets.UTF_8));
		}
		assertThat(actual).as(format + " " + names).isEqualTo(expected);
	}

	/**
	 * Return a registry configuration with client_java properties of the test's own.
	 * @param properties the properties
	 * @return the configuration
	 */
	static PrometheusConfig config(Properties properties) {
		return new PrometheusConfig() {

			@Override
			public @Nullable String get(String key) {
				return null;
			}

			@Override
			public Properties prometheusProperties() {
				return properties;
			}

		};
	}

}
