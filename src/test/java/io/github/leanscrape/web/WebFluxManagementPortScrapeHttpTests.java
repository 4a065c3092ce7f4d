package io.github.leanscrape.web;

import java.net.http.HttpResponse;

import io.github.leanscrape.support.HttpScraper;
import io.github.leanscrape.support.ScrapeTestApplication;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoint on Spring WebFlux with {@code management.server.port}: actuator on its own
 * Reactor Netty server, in a child context.
 * <p>
 * The test class path has Tomcat too, and with both servers present Spring Boot's
 * auto-configurations of the reactive management context each define the child context
 * factory: Tomcat's is left out, as an application with only Reactor Netty would not have
 * it.
 */
@SpringBootTest(classes = ScrapeTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "server.address=127.0.0.1",
				"management.server.port=0", "management.server.address=127.0.0.1",
				"spring.autoconfigure.exclude=org.springframework.boot.tomcat.autoconfigure.actuate.web.server."
						+ "TomcatReactiveManagementContextAutoConfiguration",
				"management.endpoints.web.exposure.include=prometheus", "rich.bulk-series=20000" })
class WebFluxManagementPortScrapeHttpTests extends AbstractScrapeHttpTests {

	@LocalManagementPort
	int managementPort;

	@Override
	int scrapePort() {
		return this.managementPort;
	}

	@Test
	void applicationServerDoesNotServeTheEndpoint() {
		assertThat(this.managementPort).isNotEqualTo(this.serverPort);
		HttpResponse<byte[]> response = new HttpScraper(this.serverPort).get(PATH);
		assertThat(response.statusCode()).isEqualTo(404);
	}

}
