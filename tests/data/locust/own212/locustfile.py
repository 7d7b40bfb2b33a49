from locust import HttpUser, task, between

class Visitor(HttpUser):
    wait_time = between(0.05, 0.2)

    @task(5)
    def index(self):
        self.client.get("/")

    @task(1)
    def missing(self):
        self.client.get("/missing", name="/missing (404)")

    @task(1)
    def refused(self):
        self.client.get("http://127.0.0.1:9/refused", name="refused port")

    @task(1)
    def unicode_name(self):
        self.client.get("/", name="主页 (home)")

    @task(1)
    def boom(self):
        raise ValueError("scripted failure in task")
