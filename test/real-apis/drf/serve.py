"""A Django REST Framework API set up as DRF's own tutorial sets one up: a DefaultRouter (URLs with
a trailing slash, 301 without it), ModelViewSets, PageNumberPagination envelopes, token auth and
django-filter. `python3 serve.py PORT DB_PATH` migrates a fresh SQLite file, adds the users the
tests log in as, and serves on 127.0.0.1:PORT until it is stopped."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'settings')

PORT, DB = sys.argv[1], sys.argv[2]
os.environ['DRF_DB'] = DB

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

call_command('migrate', run_syncdb=True, verbosity=0)
for name, key in (('ann', 'ann-token'), ('bob', 'bob-token')):
    user = User.objects.create_user(name, password=f'{name}-password')
    Token.objects.create(user=user, key=key)

call_command('runserver', f'127.0.0.1:{PORT}', use_reloader=False, use_threading=True, verbosity=0)
