package io.github.leanscrape.web;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.github.leanscrape.support.HttpScraper;
import io.github.leanscrape.support.ScrapeTestApplication;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code leanscrape} endpoint over HTTP: the families of the last full scrape,
 * largest first, with the renderer that wrote each, adding up to the scrape.
 */
@SpringBootTest(classes = ScrapeTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet", "server.address=127.0.0.1",
				"management.endpoints.web.exposure.include=prometheus,leanscrape", "rich.bulk-series=3000" })
class CardinalityEndpointHttpTests {

	@LocalServerPort
	int port;

	@Test
	@SuppressWarnings("unchecked")
	void reportsTheFamiliesOfTheLastFullScrapeLargestFirst() {
		HttpScraper http = new HttpScraper(this.port);
		assertThat(http.get("/actuator/leanscrape").statusCode()).isEqualTo(404);
		HttpResponse<byte[]> scrape = http.get("/actuator/prometheus");
		String body = new String(scrape.body(), StandardCharsets.UTF_8);
		long sampleLines = body.lines().filter((line) -> !line.startsWith("#")).count();
		HttpResponse<byte[]> response = http.get("/actuator/leanscrape");
		assertThat(response.statusCode()).isEqualTo(200);
		Map<String, Object> report = new JsonMapper().readValue(response.body(), Map.class);
		assertThat(report.get("format")).isEqualTo("text");
		assertThat(report.get("wholeScrapeFallbacks")).isEqualTo(0);
		assertThat((Map<String, Object>) report.get("wholeScrapeFallbackReasons")).isEmpty();
		Map<String, Object> familyReasons = (Map<String, Object>) report.get("familyFallbackReasons");
		assertThat(familyReasons).isNotNull();
		assertThat(familyReasons.values().stream().mapToLong((count) -> ((Number) count).longValue()).sum())
			.isEqualTo(((Number) report.get("familyFallbacks")).longValue());
		assertThat(((Number) report.get("series")).longValue()).isEqualTo(sampleLines);
		assertThat(((Number) report.get("bytes")).longValue()).isEqualTo(scrape.body().length);
		List<Map<String, Object>> families = (List<Map<String, Object>>) report.get("families");
		assertThat(families.get(0).get("name")).isEqualTo("rich_bulk");
		assertThat(((Number) families.get(0).get("series")).longValue()).isEqualTo(3000);
		long bytes = 0;
		long series = 0;
		long previous = Long.MAX_VALUE;
		for (Map<String, Object> family : families) {
			long familyBytes = ((Number) family.get("bytes")).longValue();
			assertThat(familyBytes).isLessThanOrEqualTo(previous);
			previous = familyBytes;
			bytes += familyBytes;
			series += ((Number) family.get("series")).longValue();
		}
		assertThat(bytes).isEqualTo(scrape.body().length);
		assertThat(series).isEqualTo(sampleLines);
		assertThat(families).anyMatch(
				(family) -> family.get("name").equals("rich_requests") && family.get("renderer").equals("reference"));
		assertThat(families).anyMatch((family) -> family.get("name").equals("rich_long_task_histogram_seconds")
				&& family.get("renderer").equals("direct"));
		assertThat(families).anyMatch((family) -> family.get("renderer").equals("direct"));
		// A filtered scrape does not replace the report of the full one.
		http.get("/actuator/prometheus?includedNames=rich_gauge");
		Map<String, Object> after = new JsonMapper().readValue(http.get("/actuator/leanscrape").body(), Map.class);
		assertThat(after.get("series")).isEqualTo(report.get("series"));
	}

}
