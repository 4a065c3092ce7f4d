package io.github.leanscrape.endpoint;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.serve.PendingScrape;
import io.github.leanscrape.support.ScrapeFixture;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.core.io.Resource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's endpoint against Spring Boot's, on the same registry, byte for byte.
 */
class LeanscrapeScrapeEndpointTests {

	private final ScrapeFixture fixture = ScrapeFixture.create(500);

	@AfterEach
	void closeFixture() {
		this.fixture.close();
	}

	static Stream<Arguments> scrapes() {
		List<Set<String>> filters = List.of(Set.of(), Set.of("rich_requests", "rich_gauge"),
				Set.of("rich_requests_total", "rich_timer_histogram_seconds", "rich_summary_bytes", "unknown"),
				new LinkedHashSet<>(List.of("rich_long_task_seconds", "rich_custom", "rich_multi_gauge_rows")));
		Stream.Builder<Arguments> arguments = Stream.builder();
		for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
			arguments.add(Arguments.of(format, null));
			for (Set<String> filter : filters) {
				arguments.add(Arguments.of(format, filter));
			}
		}
		return arguments.build();
	}

	@ParameterizedTest
	@MethodSource("scrapes")
	void webOperationSendsSpringBootsBytes(PrometheusOutputFormat format, Set<String> includedNames) throws Exception {
		byte[] expected = this.fixture.bootBody(format, includedNames);
		WebEndpointResponse<Resource> response = this.fixture.endpoint().scrapeBody(format, includedNames);
		assertThat(response.getContentType()).isEqualTo(format.getProducedMimeType());
		assertThat(response.getStatus()).isEqualTo(200);
		PendingScrapeResource resource = (PendingScrapeResource) response.getBody();
		PendingScrape pending = resource.pending();
		PooledBody body = pending.resolve(System.nanoTime() + 1_000_000_000L).body().plain();
		byte[] actual;
		try (InputStream in = resource.getInputStream()) {
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			in.transferTo(out);
			actual = out.toByteArray();
		}
		pending.release();
		// The scraper keeps the last body of each kind, for the next to copy from.
		this.fixture.forgetKeptBodies();
		assertThat(body.isReleased()).isTrue();
		assertSameBytes(actual, expected, format);
		assertThat(this.fixture.pool().chunksInUse()).isZero();
	}

	@ParameterizedTest
	@MethodSource("scrapes")
	void programmaticScrapeSendsSpringBootsBytes(PrometheusOutputFormat format, Set<String> includedNames) {
		byte[] expected = this.fixture.bootBody(format, includedNames);
		WebEndpointResponse<byte[]> response = this.fixture.endpoint().scrape(format, includedNames);
		assertThat(response.getContentType()).isEqualTo(format.getProducedMimeType());
		assertSameBytes(response.getBody(), expected, format);
		assertThat(this.fixture.pool().chunksInUse()).isZero();
	}

	/**
	 * Meters of one name with different tag keys: Micrometer 1.16 and earlier (Spring
	 * Boot 4.0) leave all but the first set of keys out of the scrape, later versions
	 * export them all. Either way the output is Spring Boot's.
	 */
	@ParameterizedTest
	@EnumSource(PrometheusOutputFormat.class)
	void meterNamesWithDifferentTagKeys(PrometheusOutputFormat format) {
		MeterRegistry registry = this.fixture.meterRegistry();
		Counter.builder("rich.mixed").tag("method", "GET").register(registry).increment(3);
		Counter.builder("rich.mixed").tag("uri", "/a").register(registry).increment(4);
		Counter.builder("rich.mixed").tag("method", "POST").register(registry).increment(5);
		Counter.builder("rich.mixed").tags("method", "PUT", "uri", "/b").register(registry).increment(6);
		for (Set<String> includedNames : Arrays.asList(null, Set.of("rich_mixed_total", "rich_mixed"))) {
			byte[] expected = this.fixture.bootBody(format, includedNames);
			assertThat(new String(expected, StandardCharsets.UTF_8)).contains("GET");
			assertSameBytes(this.fixture.endpoint().scrape(format, includedNames).getBody(), expected, format);
		}
	}

	static void assertSameBytes(byte[] actual, byte[] expected, PrometheusOutputFormat format) {
		if (format == PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF) {
			assertThat(actual).isEqualTo(expected);
		}
		else {
			// Text first, for a readable difference; then the bytes themselves.
			assertThat(new String(actual, StandardCharsets.UTF_8))
				.isEqualTo(new String(expected, StandardCharsets.UTF_8));
			assertThat(actual).isEqualTo(expected);
		}
	}

}
