package io.github.leanscrape.web;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.github.leanscrape.exposition.direct.RenderStatistics;
import io.github.leanscrape.support.FallbackCheck;
import io.github.leanscrape.support.HttpScraper;
import io.github.leanscrape.support.ProtobufDump;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The meters a real Spring Boot application registers (JVM, process, system, the web
 * server, {@code http.server.requests} and its long task timer, logback, executors), none
 * denied, scraped over HTTP and compared with Spring Boot's endpoint on the same
 * registry. Their values move between two scrapes (memory, CPU, uptime), so each sample
 * line is compared up to its value: the families, their order, metadata and label sets
 * must be Spring Boot's, byte for byte; and the direct path must have written nearly all
 * of it.
 */
abstract class AbstractApplicationMetersTests {

	private static final String PROTOBUF = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited";

	@LocalServerPort
	int port;

	@Autowired
	PrometheusRegistry prometheusRegistry;

	@Autowired
	PrometheusConfig prometheusConfig;

	@Autowired
	MeterRegistry meterRegistry;

	@Autowired
	RenderStatistics statistics;

	@ParameterizedTest
	@ValueSource(strings = { "text/plain", "application/openmetrics-text", PROTOBUF })
	void everyMeterOfTheApplicationIsSpringBoots(String accept) {
		// Traffic, so that http.server.requests and the server's meters have series. A
		// connection each: the JDK's client, reusing one connection for consecutive
		// health requests to Reactor Netty, now and then waits for a response that never
		// comes (seen with and without the starter); scrapes are not affected.
		for (int i = 0; i < 5; i++) {
			assertThat(new HttpScraper(this.port).get("/actuator/health").statusCode()).isEqualTo(200);
		}
		HttpScraper http = new HttpScraper(this.port);
		PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(this.prometheusRegistry,
				this.prometheusConfig.prometheusProperties());
		// A first scrape gives the scrape requests' own series; the second is compared.
		assertThat(http.get("/actuator/prometheus", "Accept", accept).statusCode()).isEqualTo(200);
		HttpResponse<byte[]> response;
		byte[] springBoot;
		int attempts = 0;
		int metersBefore;
		do {
			// Again when a meter came between the two scrapes (the first collection of
			// a kind registers its jvm.gc.pause meter whenever it happens).
			metersBefore = this.meterRegistry.getMeters().size();
			response = http.get("/actuator/prometheus", "Accept", accept);
			assertThat(response.statusCode()).isEqualTo(200);
			springBoot = boot.scrape(format(accept), null).getBody();
			attempts++;
		}
		while (this.meterRegistry.getMeters().size() != metersBefore && attempts < 5);
		String starter = new String(response.body(), StandardCharsets.UTF_8);
		assertThat(starter).contains("jvm_memory_used_bytes")
			.contains("process_cpu_usage")
			.contains("http_server_requests_seconds")
			.contains("http_server_requests_active_seconds")
			.contains("logback_events_total")
			.contains("executor_");
		if (accept.equals(PROTOBUF)) {
			assertThat(ProtobufDump.withoutValues(response.body())).isEqualTo(ProtobufDump.withoutValues(springBoot));
		}
		else {
			assertThat(withoutValues(starter)).isEqualTo(withoutValues(new String(springBoot, StandardCharsets.UTF_8)));
		}
		double wholeScrapeFallbacks = this.meterRegistry.get("leanscrape.fallbacks")
			.tag("scope", "scrape")
			.functionCounter()
			.count();
		assertThat(wholeScrapeFallbacks).isZero();
		// Every CI cell runs this: a Micrometer or client_java that changes what the
		// starter reads fails here, not in a user's scrape.
		FallbackCheck.assertOnlyExpected(this.statistics.cardinality(), expectedFamilyFallbacks());
	}

	/**
	 * Return the reasons for which families of this application are expected to be
	 * written by Spring Boot's path.
	 * @return the reasons' texts: none for a plain application
	 */
	Set<String> expectedFamilyFallbacks() {
		return Set.of();
	}

	private static PrometheusOutputFormat format(String accept) {
		if (accept.equals(PROTOBUF)) {
			return PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF;
		}
		return accept.startsWith("application/openmetrics-text") ? PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100
				: PrometheusOutputFormat.CONTENT_TYPE_004;
	}

	/**
	 * Return the body with every sample value replaced by {@code V}.
	 * @param body the body
	 * @return the body without values
	 */
	static String withoutValues(String body) {
		List<String> lines = new ArrayList<>();
		for (String line : body.split("\n", -1)) {
			if (line.startsWith("#") || line.isEmpty()) {
				lines.add(line);
				continue;
			}
			lines.add(line.substring(0, valueStart(line)) + "V");
		}
		return String.join("\n", lines);
	}

	/**
	 * Return where the value of a sample line starts: after the labels, whose quoted
	 * values may hold spaces and braces.
	 * @param line the sample line
	 * @return the index of its value
	 */
	private static int valueStart(String line) {
		int brace = line.indexOf('{');
		int space = line.indexOf(' ');
		if (brace < 0 || space < brace) {
			return space + 1;
		}
		boolean quoted = false;
		for (int i = brace + 1; i < line.length(); i++) {
			char c = line.charAt(i);
			if (quoted && c == '\\') {
				i++;
			}
			else if (c == '"') {
				quoted = !quoted;
			}
			else if (!quoted && c == '}') {
				return i + 2;
			}
		}
		return line.length();
	}

}
