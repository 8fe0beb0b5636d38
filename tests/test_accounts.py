from django.contrib.auth.models import User


def test_a_visitor_can_sign_up_and_is_logged_in(client, db):
    response = client.post(
        "/signup/", {"username": "newbie", "password1": "a-Long-pass-42", "password2": "a-Long-pass-42"}
    )
    assert response.status_code == 302
    assert User.objects.filter(username="newbie").exists()
    assert "Your groups" in client.get("/").content.decode()


def test_sign_up_refuses_mismatched_passwords_and_names_the_field(client, db):
    response = client.post("/signup/", {"username": "x", "password1": "a-Long-pass-42", "password2": "other-pass-42"})
    assert response.status_code == 200
    assert response.context["form"].errors["password2"]
    assert not User.objects.filter(username="x").exists()


def test_log_in_and_log_out(client, owner):
    response = client.post("/login/", {"username": "olga", "password": "owner-pass-123"})
    assert response.status_code == 302
    assert client.get("/").context["user"].is_authenticated
    client.post("/logout/")
    assert not client.get("/").context["user"].is_authenticated


def test_pages_that_need_an_account_send_a_visitor_to_log_in(client, group):
    response = client.get(f"/g/{group.pk}/")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


def test_every_form_carries_a_csrf_token(client, owner_client, group, session):
    for url in ["/groups/new/", f"/g/{group.pk}/", f"/s/{session.pk}/", f"/g/{group.pk}/members/"]:
        assert "csrfmiddlewaretoken" in owner_client.get(url).content.decode(), url
    for url in ["/signup/", "/login/", "/join/", "/"]:
        assert "csrfmiddlewaretoken" in client.get(url).content.decode(), url


def test_a_post_without_the_csrf_token_is_refused(db, owner):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(owner)
    assert strict.post("/groups/new/", {"name": "Sneaky"}).status_code == 403
