package io.github.leanscrape.security;

import io.github.leanscrape.support.BootWiringTests;
import io.github.leanscrape.support.HttpScraper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An endpoint excluded from exposure, or with no access, is not there at all: 404 on both
 * stacks, as with Spring Boot's own endpoint.
 */
@Tag(BootWiringTests.TAG)
class EndpointOffTests {

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			servlet  | management.endpoints.web.exposure.exclude=prometheus
			servlet  | management.endpoint.prometheus.access=none
			reactive | management.endpoints.web.exposure.exclude=prometheus
			reactive | management.endpoint.prometheus.access=none
			""")
	void endpointOffIs404(String stack, String property) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SecuredScrapeApplication.class)
			.properties("spring.main.web-application-type=" + stack, "server.port=0", "server.address=127.0.0.1",
					"management.endpoints.web.exposure.include=prometheus,health", property,
					"spring.security.user.name=scraper", "spring.security.user.password=secret")
			.run()) {
			int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
			HttpScraper http = new HttpScraper(port);
			String credentials = AbstractSecuredScrapeTests.basic("scraper", "secret");
			assertThat(http.get("/actuator/prometheus", "Authorization", credentials).statusCode()).isEqualTo(404);
			assertThat(http.get("/actuator/health", "Authorization", credentials).statusCode()).isEqualTo(200);
		}
	}

}
