"""A FastAPI API set up as FastAPI's own tutorial sets one up: paths without a trailing slash (the
other form answers 307), UUID ids, datetimes, pydantic's 422 bodies, OAuth2 password flow with
Bearer tokens that expire, skip/limit and cursor paging, and a path parameter named like the
route (`/projects/{project_id}`). State lives in memory: each server starts empty.
Run: python3 -m uvicorn app:app --host 127.0.0.1 --port PORT (from this folder)."""
from datetime import datetime, timedelta, timezone
from typing import Dict, List, Optional
from uuid import UUID, uuid4

from fastapi import Depends, FastAPI, HTTPException, Response, status
from fastapi.middleware.cors import CORSMiddleware
from fastapi.security import OAuth2PasswordBearer, OAuth2PasswordRequestForm
from pydantic import BaseModel, Field

app = FastAPI()
app.add_middleware(
    CORSMiddleware,
    allow_origin_regex='.*',
    allow_methods=['*'],
    allow_headers=['*'],
    expose_headers=['X-Total-Count', 'Link'],
)
oauth2_scheme = OAuth2PasswordBearer(tokenUrl='token')

USERS = {'ann': 'ann-password', 'bob': 'bob-password', 'eve': 'eve-password'}
# token -> (user, expires at). Eve's tokens live a second, for the tests of expiry.
TOKENS: Dict[str, tuple] = {}
TOKEN_SECONDS = {'eve': 1.0}


class TaskIn(BaseModel):
    title: str = Field(..., min_length=1)
    status: str = 'todo'
    due: Optional[datetime] = None


class TaskPatch(BaseModel):
    title: Optional[str] = Field(None, min_length=1)
    status: Optional[str] = None
    due: Optional[datetime] = None


class Task(TaskIn):
    id: UUID
    owner: str
    created: datetime


class Project(BaseModel):
    id: int
    name: str


TASKS: Dict[UUID, Task] = {}
PROJECTS: Dict[int, Project] = {i: Project(id=i, name=f'Project {i}') for i in range(1, 4)}


@app.post('/token')
def login(form: OAuth2PasswordRequestForm = Depends()):
    if USERS.get(form.username) != form.password:
        raise HTTPException(status_code=400, detail='Incorrect username or password')
    token = uuid4().hex
    lifetime = timedelta(seconds=TOKEN_SECONDS.get(form.username, 3600))
    TOKENS[token] = (form.username, datetime.now(timezone.utc) + lifetime)
    return {'access_token': token, 'token_type': 'bearer'}


def current_user(token: str = Depends(oauth2_scheme)) -> str:
    found = TOKENS.get(token)
    if not found or found[1] < datetime.now(timezone.utc):
        raise HTTPException(
            status_code=status.HTTP_401_UNAUTHORIZED,
            detail='Could not validate credentials',
            headers={'WWW-Authenticate': 'Bearer'},
        )
    return found[0]


@app.get('/tasks', response_model=List[Task])
def list_tasks(response: Response, skip: int = 0, limit: int = 10, status: Optional[str] = None):
    tasks = [t for t in TASKS.values() if status is None or t.status == status]
    response.headers['X-Total-Count'] = str(len(tasks))
    return tasks[skip : skip + limit]


@app.get('/tasks/cursor')
def list_tasks_by_cursor(cursor: Optional[str] = None, limit: int = 2):
    tasks = list(TASKS.values())
    start = int(cursor) if cursor else 0
    end = start + limit
    return {'items': tasks[start:end], 'next_cursor': str(end) if end < len(tasks) else None}


@app.post('/tasks', response_model=Task, status_code=201)
def create_task(task: TaskIn, user: str = Depends(current_user)):
    created = Task(id=uuid4(), owner=user, created=datetime.now(timezone.utc), **task.dict())
    TASKS[created.id] = created
    return created


@app.get('/tasks/{task_id}', response_model=Task)
def read_task(task_id: UUID):
    if task_id not in TASKS:
        raise HTTPException(status_code=404, detail='Task not found')
    return TASKS[task_id]


@app.patch('/tasks/{task_id}', response_model=Task)
def update_task(task_id: UUID, patch: TaskPatch, user: str = Depends(current_user)):
    if task_id not in TASKS:
        raise HTTPException(status_code=404, detail='Task not found')
    updated = TASKS[task_id].copy(update=patch.dict(exclude_unset=True))
    TASKS[task_id] = updated
    return updated


@app.delete('/tasks/{task_id}', status_code=204)
def delete_task(task_id: UUID, user: str = Depends(current_user)):
    if TASKS.pop(task_id, None) is None:
        raise HTTPException(status_code=404, detail='Task not found')
    return Response(status_code=204)


@app.get('/projects', response_model=List[Project])
def list_projects():
    return list(PROJECTS.values())


@app.get('/projects/{project_id}', response_model=Project)
def read_project(project_id: int):
    if project_id not in PROJECTS:
        raise HTTPException(status_code=404, detail='Project not found')
    return PROJECTS[project_id]


@app.delete('/projects/{project_id}', status_code=204)
def delete_project(project_id: int, user: str = Depends(current_user)):
    if PROJECTS.pop(project_id, None) is None:
        raise HTTPException(status_code=404, detail='Project not found')
    return Response(status_code=204)
